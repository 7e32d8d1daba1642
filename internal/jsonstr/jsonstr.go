// Package jsonstr appends JSON strings without reflection, for the hand
// written encoders on the hot path (results records, exec protocol lines).
package jsonstr

import (
	"encoding/binary"
	"unicode/utf8"
)

const hexDigits = "0123456789abcdef"

// plain marks the ASCII bytes written as they are: one lookup per byte on
// the common path.
var plain = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// Append quotes s as encoding/json does with HTML escaping off:
// control characters escaped, invalid UTF-8 replaced by U+FFFD, and
// U+2028/U+2029 escaped.
func Append(b []byte, s string) []byte {
	b = append(b, '"')
	if plainAll(s) {
		// Most of a record's strings are short and plain: two overlapping
		// loads decide one of up to 16 bytes.
		b = append(b, s...)
		return append(b, '"')
	}
	start := 0
	for i := 0; i < len(s); {
		// Eight bytes at a time while none needs a look: most of a
		// record's strings are plain ASCII.
		for i+8 <= len(s) && plain8(s, i) {
			i += 8
		}
		if i >= len(s) {
			break
		}
		if c := s[i]; c < utf8.RuneSelf {
			if plain[c] {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// plainAll reports whether every byte of a string of up to 16 bytes is
// written as it is (false for a longer one: Append's loop takes it).
func plainAll(s string) bool {
	switch n := len(s); {
	case n >= 8 && n <= 16:
		return plain8(s, 0) && plain8(s, n-8)
	case n >= 4 && n < 8:
		// The two halves, overlapping, as one uint64.
		v := uint64(binary.LittleEndian.Uint32([]byte(s[:4]))) | uint64(binary.LittleEndian.Uint32([]byte(s[n-4:])))<<32
		return plainWord(v)
	case n < 4:
		for i := 0; i < n; i++ {
			if c := s[i]; c >= utf8.RuneSelf || !plain[c] {
				return false
			}
		}
		return true
	}
	return false
}

// Bytes repeated in every lane of a uint64, for plain8.
const (
	lanes01   = 0x0101010101010101
	lanes20   = 0x2020202020202020 // the first byte that is not a control character
	lanes22   = 0x2222222222222222 // '"'
	lanes5c   = 0x5c5c5c5c5c5c5c5c // '\\'
	laneHighs = 0x8080808080808080
)

// plain8 reports whether the 8 bytes of s at i are all written as they are:
// ASCII, not a control character, '"' or '\\'. It tests all eight at once
// (SWAR): x-lanes01 & ^x has a lane's high bit set where x has a zero byte
// (exact for "any lane"); v-lanes20 & ^v likewise where v has a byte below
// 0x20; and v's own high bits mark non-ASCII bytes.
func plain8(s string, i int) bool {
	return plainWord(binary.LittleEndian.Uint64([]byte(s[i : i+8])))
}

// plainWord is plain8 on the eight bytes of v.
func plainWord(v uint64) bool {
	quote, backslash := v^lanes22, v^lanes5c
	return ((v-lanes20)&^v|(quote-lanes01)&^quote|(backslash-lanes01)&^backslash|v)&laneHighs == 0
}
