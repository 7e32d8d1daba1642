package jsonl

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/buger/jsonparser"
)

// Value is one value of a record line as EachField finds it: its JSON text
// (a string's without its quotes, escapes left in) and its kind, read
// without decoding anything around it. The typed readers agree with
// encoding/json decoding the value into a Go value of that type: null is
// the zero value, a value of another kind is an error.
type Value struct {
	Raw  []byte
	Kind jsonparser.ValueType
}

// errKind is a value of the wrong kind for the reader asked.
var errKind = errors.New("value of another kind")

// Null reports a JSON null.
func (v Value) Null() bool { return v.Kind == jsonparser.Null }

// String decodes a string (escapes resolved); null is "".
func (v Value) String() (string, error) {
	switch v.Kind {
	case jsonparser.Null:
		return "", nil
	case jsonparser.String:
		b := v.Raw
		if bytes.IndexByte(b, '\\') >= 0 {
			s, err := jsonparser.ParseString(b)
			if err != nil {
				return "", err
			}
			b = []byte(s)
		}
		if !utf8.Valid(b) {
			return validUTF8(b), nil
		}
		return string(b), nil
	}
	return "", errKind
}

// validUTF8 replaces each byte of b that is not part of a UTF-8 sequence
// by U+FFFD, as encoding/json does.
func validUTF8(b []byte) string {
	var sb strings.Builder
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r == utf8.RuneError && n == 1 {
			sb.WriteRune(utf8.RuneError)
		} else {
			sb.Write(b[:n])
		}
		b = b[n:]
	}
	return sb.String()
}

// Int decodes an integer that fits an int64 (no fraction, no exponent,
// as encoding/json requires of an integer field); null is 0.
func (v Value) Int() (int64, error) {
	switch v.Kind {
	case jsonparser.Null:
		return 0, nil
	case jsonparser.Number:
		return jsonparser.ParseInt(v.Raw)
	}
	return 0, errKind
}

// Float decodes a number; null is 0.
func (v Value) Float() (float64, error) {
	switch v.Kind {
	case jsonparser.Null:
		return 0, nil
	case jsonparser.Number:
		return jsonparser.ParseFloat(v.Raw)
	}
	return 0, errKind
}

// Bool decodes true or false; null is false.
func (v Value) Bool() (bool, error) {
	switch v.Kind {
	case jsonparser.Null:
		return false, nil
	case jsonparser.Boolean:
		return jsonparser.ParseBoolean(v.Raw)
	}
	return false, errKind
}

// Strings decodes an array of strings (appended to dst); null is none.
func (v Value) Strings(dst []string) ([]string, error) {
	switch v.Kind {
	case jsonparser.Null:
		return dst, nil
	case jsonparser.Array:
	default:
		return dst, errKind
	}
	if dst == nil {
		dst = []string{} // as encoding/json decodes []
	}
	var err error
	_, aerr := jsonparser.ArrayEach(v.Raw, func(e []byte, et jsonparser.ValueType, _ int, _ error) {
		if err != nil {
			return
		}
		var s string
		s, err = Value{Raw: e, Kind: et}.String()
		dst = append(dst, s)
	})
	return dst, errors.Join(err, aerr)
}

// Each calls fn with each element of an array (null has none).
func (v Value) Each(fn func(Value) error) error {
	switch v.Kind {
	case jsonparser.Null:
		return nil
	case jsonparser.Array:
	default:
		return errKind
	}
	var err error
	_, aerr := jsonparser.ArrayEach(v.Raw, func(e []byte, et jsonparser.ValueType, _ int, _ error) {
		if err == nil {
			err = fn(Value{Raw: e, Kind: et})
		}
	})
	return errors.Join(err, aerr)
}

// EachField calls fn with each member of the JSON object in line (or in
// an object Value's Raw), in order, repeated keys included (the last is
// the one encoding/json keeps), skipping over the values fn does not read
// without decoding them: reading a few fields of a record costs a small
// part of decoding it. It returns fn's first error, or an error when line
// is not an object. Values fn skips are not checked beyond their brackets
// and quotes: a caller that must refuse what encoding/json refuses checks
// the line with json.Valid.
func EachField(line []byte, fn func(key []byte, v Value) error) error {
	t := bytes.TrimSpace(line)
	if len(t) < 2 || t[0] != '{' || t[len(t)-1] != '}' {
		return errNotObject
	}
	return jsonparser.ObjectEach(t, func(key, v []byte, vt jsonparser.ValueType, _ int) error {
		return fn(key, Value{Raw: v, Kind: vt})
	})
}

// errNotObject is a line that does not hold one JSON object.
var errNotObject = errors.New("not a JSON object")

// Any decodes v as encoding/json decodes a value into an interface{}:
// nil, a string, a float64, a bool, or (objects and arrays, decoded by
// encoding/json) a map[string]any or a []any.
func (v Value) Any() (any, error) {
	switch v.Kind {
	case jsonparser.Null:
		return nil, nil
	case jsonparser.String:
		return v.String()
	case jsonparser.Number:
		return v.Float()
	case jsonparser.Boolean:
		return v.Bool()
	case jsonparser.Object, jsonparser.Array:
		var x any
		err := json.Unmarshal(v.Raw, &x)
		return x, err
	}
	return nil, errKind
}

// Key is a member's name as EachField gives it (escapes resolved) as
// encoding/json decodes a map key: invalid UTF-8 replaced.
func Key(key []byte) string {
	if !utf8.Valid(key) {
		return validUTF8(key)
	}
	return string(key)
}

// Object reports whether v is an object (null is not).
func (v Value) Object() bool { return v.Kind == jsonparser.Object }
