package matrix

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agenteval/agenteval/scenario"
)

// pathError is a syntax error in a parameter path. Column is the 1-based
// character (not byte) position of the offending character, so that a person
// can count to it in the text they wrote.
type pathError struct {
	// Input is the path as written.
	Input string
	// Column is the 1-based character position of the problem; len+1 means "at the end".
	Column int
	// Message says what was expected there.
	Message string
}

// Error formats the error as: path "run[0.input": at character 6: ....
func (e *pathError) Error() string {
	return fmt.Sprintf("path %q: at character %d: %s", e.Input, e.Column, e.Message)
}

// maxIndex bounds list indexes so that any index fits an int on every
// platform; no scenario has lists anywhere near this long.
const maxIndex = 1<<31 - 1

// parseFullPath parses a parameter path into a scenario.Path. The grammar is
//
//	path  = first ( "." ident | "[" digits "]" | "[" quoted "]" )*
//	first = ident | "[" quoted "]"
//	ident = [A-Za-z_$][A-Za-z0-9_$]*
//
// where quoted is a double-quoted string with Go/JSON escapes or a
// single-quoted string taken literally. Quoting addresses keys that are not
// identifiers: setup.virtual_fs["data.json"], plugins[0].config['api-key'].
// The result's String method gives the canonical spelling, which parseFullPath
// reads back to the same Path.
func parseFullPath(s string) (scenario.Path, error) {
	p, end, err := parsePath(s, false)
	if err != nil {
		return nil, err
	}
	if end != len(s) && s[end] == ']' {
		return nil, errAt(s, end, "unexpected ']' with no '[' open")
	}
	if end != len(s) {
		return nil, errAt(s, end, "unexpected %s; expected '.', '[' or the end%s", describe(s, end), quoteHint(s, end))
	}
	return p, nil
}

// quoteHint suggests the quoted spelling when a key that is not an
// identifier (api-key, data.json) was written after a dot.
func quoteHint(s string, end int) string {
	start := end
	for start > 0 && isIdentPart(s[start-1]) {
		start--
	}
	if start == end || (start > 0 && s[start-1] != '.') {
		return " (quote keys that are not identifiers, as in [\"data.json\"])"
	}
	stop := end + strings.IndexAny(s[end:], ".[")
	if stop < end {
		stop = len(s)
	}
	prefix := ""
	if start > 0 {
		prefix = s[:start-1]
	}
	return fmt.Sprintf("; quote keys that are not identifiers: %s[%q]%s", prefix, s[start:stop], s[stop:])
}

// parsePath parses a path at the start of s. With stopAtEquals it stops
// before an '=' that follows a complete element (for filters) and returns
// where it stopped.
func parsePath(s string, stopAtEquals bool) (scenario.Path, int, error) {
	if s == "" {
		return nil, 0, &pathError{Input: s, Column: 1, Message: "path is empty"}
	}
	var p scenario.Path
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case stopAtEquals && c == '=' && len(p) > 0:
			return p, i, nil
		case c == '.':
			if len(p) == 0 {
				return nil, 0, errAt(s, i, "a path starts with a field name, not '.'")
			}
			if i+1 >= len(s) {
				return nil, 0, errAt(s, i+1, "expected a field name after '.'")
			}
			if !isIdentStart(s[i+1]) {
				return nil, 0, identError(s, i+1)
			}
			name, next := scanIdent(s, i+1)
			p = p.Key(name)
			i = next
		case c == '[':
			elem, next, err := parseBracket(s, i, len(p) == 0)
			if err != nil {
				return nil, 0, err
			}
			p = append(p, elem)
			i = next
		case len(p) == 0 && isIdentStart(c):
			name, next := scanIdent(s, i)
			p = p.Key(name)
			i = next
		case len(p) == 0:
			return nil, 0, identError(s, i)
		default:
			return p, i, nil
		}
	}
	return p, i, nil
}

// parseBracket parses "[digits]" or "[quoted]" starting at s[i] == '['.
func parseBracket(s string, i int, first bool) (scenario.PathElem, int, error) {
	j := i + 1
	if j >= len(s) {
		return scenario.PathElem{}, 0, errAt(s, j, "expected an index or a quoted key after '['")
	}
	switch c := s[j]; {
	case c >= '0' && c <= '9':
		if first {
			return scenario.PathElem{}, 0, errAt(s, i, "a path starts with a field name, not an index")
		}
		k := j
		n := 0
		for k < len(s) && s[k] >= '0' && s[k] <= '9' {
			n = n*10 + int(s[k]-'0')
			if n > maxIndex {
				return scenario.PathElem{}, 0, errAt(s, j, "index is too large")
			}
			k++
		}
		if k >= len(s) || s[k] != ']' {
			return scenario.PathElem{}, 0, errAt(s, k, "expected ']' to close the index, found %s", describe(s, k))
		}
		return scenario.PathElem{Index: n, IsIndex: true}, k + 1, nil
	case c == '"' || c == '\'':
		key, k, err := scanQuoted(s, j)
		if err != nil {
			return scenario.PathElem{}, 0, err
		}
		if k >= len(s) || s[k] != ']' {
			return scenario.PathElem{}, 0, errAt(s, k, "expected ']' after the quoted key, found %s", describe(s, k))
		}
		return scenario.PathElem{Key: key}, k + 1, nil
	case c == '-':
		return scenario.PathElem{}, 0, errAt(s, j, "an index cannot be negative")
	default:
		return scenario.PathElem{}, 0, errAt(s, j, "expected a non-negative index or a quoted key, found %s", describe(s, j))
	}
}

// scanQuoted reads a quoted string starting at s[i] (a quote) and returns
// its value and the index after the closing quote.
func scanQuoted(s string, i int) (string, int, error) {
	q := s[i]
	if q == '\'' {
		end := strings.IndexByte(s[i+1:], '\'')
		if end < 0 {
			return "", 0, errAt(s, i, "quoted key is not closed")
		}
		return s[i+1 : i+1+end], i + 2 + end, nil
	}
	for k := i + 1; k < len(s); k++ {
		switch s[k] {
		case '\\':
			k++
		case '"':
			v, err := strconv.Unquote(s[i : k+1])
			if err != nil {
				return "", 0, errAt(s, i, "quoted key has an invalid escape")
			}
			return v, k + 1, nil
		}
	}
	return "", 0, errAt(s, i, "quoted key is not closed")
}

func scanIdent(s string, i int) (string, int) {
	j := i + 1
	for j < len(s) && isIdentPart(s[j]) {
		j++
	}
	return s[i:j], j
}

func isIdentStart(c byte) bool {
	return c == '_' || c == '$' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

func isIdentPart(c byte) bool { return isIdentStart(c) || (c >= '0' && c <= '9') }

// identError explains a character that cannot start a field name, with the
// quoting that would address such a key.
func identError(s string, i int) error {
	if c := s[i]; c == '.' {
		return errAt(s, i, "empty field name (two dots in a row)")
	}
	return errAt(s, i, "expected a field name, found %s; quote keys that are not identifiers, as in [\"data.json\"]", describe(s, i))
}

// describe names the character at byte offset i, or the end of input.
func describe(s string, i int) string {
	if i >= len(s) {
		return "the end of the path"
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return strconv.QuoteRune(r)
}

// errAt builds a pathError at byte offset i, reported as a character position.
func errAt(s string, i int, format string, args ...any) *pathError {
	i = min(i, len(s))
	return &pathError{Input: s, Column: utf8.RuneCountInString(s[:i]) + 1, Message: fmt.Sprintf(format, args...)}
}
