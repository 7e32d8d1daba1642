package matrix

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/agenteval/agenteval/internal/jsonstr"
	"maps"
	"slices"

	"github.com/agenteval/agenteval/scenario"
)

// toPlain turns a Go value into plain data (map[string]any, []any, string,
// json.Number, bool, nil) through its JSON encoding, which is the form the
// loader validates.
func toPlain(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var out any
	if err := d.Decode(&out); err != nil {
		return nil, err
	}
	return out, nil
}

// setPlain returns doc with the value at p replaced by v. Only the maps and
// lists on p are copied; doc is not modified. The last key is created when
// absent (a field that JSON omitted because it was empty); resolve has
// already checked that the path exists in the typed model.
func setPlain(doc any, p scenario.Path, v any) (any, error) {
	if len(p) == 0 {
		return v, nil
	}
	e := p[0]
	switch c := doc.(type) {
	case map[string]any:
		if e.IsIndex {
			return nil, fmt.Errorf("index [%d] into an object", e.Index)
		}
		child, err := setPlain(c[e.Key], p[1:], v)
		if err != nil {
			return nil, err
		}
		n := maps.Clone(c)
		n[e.Key] = child
		return n, nil
	case []any:
		if !e.IsIndex || e.Index >= len(c) {
			return nil, fmt.Errorf("no element %s in a list of %d", p[:1], len(c))
		}
		child, err := setPlain(c[e.Index], p[1:], v)
		if err != nil {
			return nil, err
		}
		n := slices.Clone(c)
		n[e.Index] = child
		return n, nil
	case nil:
		if e.IsIndex {
			return nil, fmt.Errorf("index [%d] into nothing", e.Index)
		}
		child, err := setPlain(nil, p[1:], v)
		if err != nil {
			return nil, err
		}
		return map[string]any{e.Key: child}, nil
	default:
		return nil, fmt.Errorf("%s into a single value", p[:1])
	}
}

// canonicalJSON encodes plain data deterministically: object keys sorted
// (encoding/json sorts map keys), numbers as written after YAML 1.2
// normalisation (3 and 3.0 both read as 3), no HTML escaping.
func canonicalJSON(v any) ([]byte, error) {
	if s, ok := v.(string); ok {
		return appendCanonical(make([]byte, 0, len(s)+2), v)
	}
	return appendCanonical(nil, v)
}

// appendCanonical appends v's canonical JSON to dst.
func appendCanonical(dst []byte, v any) ([]byte, error) {
	if s, ok := v.(string); ok {
		// The common value, quoted as encoding/json quotes it (below) with
		// no encoder to set up: a sweep of 10^4 inputs compiles faster.
		return jsonstr.Append(dst, s), nil
	}
	b := bytes.NewBuffer(dst)
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return dst, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// plainAt returns the plain data at p in doc, or nil.
func plainAt(doc any, p scenario.Path) any {
	cur := doc
	for _, e := range p {
		switch c := cur.(type) {
		case map[string]any:
			cur = c[e.Key]
		case []any:
			if !e.IsIndex || e.Index >= len(c) {
				return nil
			}
			cur = c[e.Index]
		default:
			return nil
		}
	}
	return cur
}
