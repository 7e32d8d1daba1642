package jsonl

import (
	"errors"

	"github.com/agenteval/agenteval/llm"
)

// ErrPlain is what a reader of picked fields (report's first pass, plan's
// history) returns for a line it leaves to encoding/json: a field of
// another kind, a repeated field, a key encoding/json would fold onto a
// field, or a line that is not an object. encoding/json's verdict then
// stands.
var ErrPlain = errors.New("not read plainly")

// Fields reads the members of the object line (or an object value's Raw)
// by fn, which returns the bit that names the field it read, or 0 for a
// key it does not read. A field read twice is ErrPlain, and so is an
// unread key that encoding/json would still match to a field by folding
// case: the fields' names are lower-case ASCII, so a key in lower-case
// ASCII is another field, and one with an upper-case or non-ASCII letter
// may be one of them.
func Fields(line []byte, fn func(key []byte, v Value) (bit uint64, err error)) error {
	var seen uint64
	return EachField(line, func(key []byte, v Value) error {
		bit, err := fn(key, v)
		if bit == 0 {
			if err != nil {
				return err
			}
			for _, c := range key {
				if c >= 0x80 || ('A' <= c && c <= 'Z') {
					return ErrPlain
				}
			}
			return nil
		}
		if seen&bit != 0 {
			return ErrPlain
		}
		seen |= bit
		return err
	})
}

// ObjectFields is Fields over an object value: null has no members,
// another kind is ErrPlain.
func ObjectFields(v Value, fn func(key []byte, v Value) (bit uint64, err error)) error {
	if v.Null() {
		return nil
	}
	if !v.Object() {
		return ErrPlain
	}
	return Fields(v.Raw, fn)
}

// Usage reads a token usage object into u, every field of llm.Usage, as
// encoding/json would (null leaves u as it is; a field of another kind is
// an error): results records and plan's history carry it alike.
func Usage(v Value, u *llm.Usage) error {
	return ObjectFields(v, func(key []byte, v Value) (uint64, error) {
		var dst *int
		var bit uint64
		switch string(key) {
		case "prompt_tokens":
			dst, bit = &u.PromptTokens, 1
		case "completion_tokens":
			dst, bit = &u.CompletionTokens, 2
		case "total_tokens":
			dst, bit = &u.TotalTokens, 4
		case "reasoning_tokens":
			dst, bit = &u.ReasoningTokens, 8
		case "cache_read_tokens":
			dst, bit = &u.CacheReadTokens, 16
		case "cache_write_tokens":
			dst, bit = &u.CacheWriteTokens, 32
		case "cost_usd":
			f, err := v.Float()
			u.CostUSD = f
			return 64, err
		default:
			return 0, nil
		}
		n, err := v.Int()
		*dst = int(n)
		return bit, err
	})
}
