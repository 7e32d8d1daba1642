package scenario

import (
	"encoding"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// decodeValue stores plain data, as a Document holds it (map[string]any,
// []any, string, json.Number, bool, nil), in the value dst points to. It
// does what encoding/json would do with the same data written as JSON,
// without writing and re-reading that JSON, with one difference: struct
// fields match their json names exactly, as the schema does, not ignoring
// case. Keys without a field are skipped (the schema has reported them). It
// keeps going after a mismatch and returns the first one.
func decodeValue(v any, dst any) error {
	d := valueDecoder{}
	d.decode(v, reflect.ValueOf(dst).Elem())
	return d.err
}

type valueDecoder struct {
	err error
	// path is where the decoder is, a stack kept in place; only an error
	// reads it.
	path Path
}

func (d *valueDecoder) fail(format string, args ...any) {
	if d.err == nil {
		d.err = &decodeError{path: slices.Clone(d.path), msg: fmt.Sprintf(format, args...)}
	}
}

// decodeError is a value that does not fit its Go type, at a path.
type decodeError struct {
	path Path
	msg  string
}

func (e *decodeError) Error() string {
	if len(e.path) == 0 {
		return e.msg
	}
	return e.path.String() + ": " + e.msg
}

func (d *valueDecoder) push(e PathElem) { d.path = append(d.path, e) }
func (d *valueDecoder) pop()            { d.path = d.path[:len(d.path)-1] }

var (
	durationType        = reflect.TypeFor[Duration]()
	stringListType      = reflect.TypeFor[StringList]()
	pluginType          = reflect.TypeFor[Plugin]()
	characterType       = reflect.TypeFor[Character]()
	llmConfigType       = reflect.TypeFor[LLMConfig]()
	evaluationType      = reflect.TypeFor[Evaluation]()
	unmarshalerType     = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
	jsonNumberType      = reflect.TypeFor[json.Number]()
	emptyIntfType       = reflect.TypeFor[any]()
	stringSliceType     = reflect.TypeFor[[]string]()
)

func (d *valueDecoder) decode(v any, rv reflect.Value) {
	t := rv.Type()
	// This package's types with their own JSON forms.
	switch t {
	case durationType:
		d.duration(v, rv)
		return
	case stringListType:
		if s, ok := v.(string); ok {
			rv.Set(reflect.ValueOf(StringList{s}))
			return
		}
		d.decode(v, rv.Addr().Convert(reflect.PointerTo(stringSliceType)).Elem())
		return
	case pluginType:
		if s, ok := v.(string); ok {
			rv.Set(reflect.ValueOf(Plugin{Name: s}))
			return
		}
		d.structFields(v, rv)
		return
	case characterType:
		d.structFields(v, rv)
		rv.FieldByName("Extra").Set(reflect.ValueOf(extraValues(v, characterKeys)))
		return
	case llmConfigType:
		d.structFields(v, rv)
		rv.FieldByName("Extra").Set(reflect.ValueOf(extraValues(v, llmKeys)))
		return
	case evaluationType:
		d.evaluation(v, rv.Addr().Interface().(*Evaluation))
		return
	case jsonNumberType:
		if n, ok := v.(json.Number); ok {
			rv.SetString(string(n))
			return
		}
	}
	if v == nil {
		// JSON null: pointers, maps, slices and interfaces become nil; other
		// values are left alone.
		switch t.Kind() {
		case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Interface:
			rv.SetZero()
		}
		return
	}
	// A host's type with its own JSON form (an evaluation's parameters).
	if t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface && reflect.PointerTo(t).Implements(unmarshalerType) {
		b, err := json.Marshal(v)
		if err == nil {
			err = rv.Addr().Interface().(json.Unmarshaler).UnmarshalJSON(b)
		}
		if err != nil {
			d.fail("%v", err)
		}
		return
	}
	// A host's type that reads itself from text, as encoding/json honours.
	if s, ok := v.(string); ok && t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface && reflect.PointerTo(t).Implements(textUnmarshalerType) {
		if err := rv.Addr().Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(s)); err != nil {
			d.fail("%v", err)
		}
		return
	}
	switch t.Kind() {
	case reflect.Pointer:
		if rv.IsNil() {
			rv.Set(reflect.New(t.Elem()))
		}
		d.decode(v, rv.Elem())
	case reflect.Interface:
		if t == emptyIntfType {
			rv.Set(reflect.ValueOf(jsonPlain(v)))
			return
		}
		d.fail("cannot store %s in %s", jsonTypeName(v), t)
	case reflect.Struct:
		d.structFields(v, rv)
	case reflect.Map:
		m, ok := v.(map[string]any)
		if !ok || t.Key().Kind() != reflect.String {
			d.fail("cannot store %s in %s", jsonTypeName(v), t)
			return
		}
		out := reflect.MakeMapWithSize(t, len(m))
		for k, e := range m {
			ev := reflect.New(t.Elem()).Elem()
			d.push(PathElem{Key: k})
			d.decode(e, ev)
			d.pop()
			out.SetMapIndex(reflect.ValueOf(k).Convert(t.Key()), ev)
		}
		rv.Set(out)
	case reflect.Slice:
		s, ok := v.([]any)
		if !ok {
			d.fail("cannot store %s in %s", jsonTypeName(v), t)
			return
		}
		out := reflect.MakeSlice(t, len(s), len(s))
		for i, e := range s {
			d.push(PathElem{Index: i, IsIndex: true})
			d.decode(e, out.Index(i))
			d.pop()
		}
		rv.Set(out)
	case reflect.String:
		s, ok := v.(string)
		if !ok {
			d.fail("cannot store %s in %s", jsonTypeName(v), t)
			return
		}
		rv.SetString(s)
	case reflect.Bool:
		b, ok := v.(bool)
		if !ok {
			d.fail("cannot store %s in %s", jsonTypeName(v), t)
			return
		}
		rv.SetBool(b)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, ok := v.(json.Number)
		i, err := strconv.ParseInt(string(n), 10, t.Bits())
		if !ok || err != nil {
			d.numberFail(v, t)
			return
		}
		rv.SetInt(i)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, ok := v.(json.Number)
		u, err := strconv.ParseUint(string(n), 10, t.Bits())
		if !ok || err != nil {
			d.numberFail(v, t)
			return
		}
		rv.SetUint(u)
	case reflect.Float32, reflect.Float64:
		n, ok := v.(json.Number)
		f, err := strconv.ParseFloat(string(n), t.Bits())
		if !ok || err != nil {
			d.numberFail(v, t)
			return
		}
		rv.SetFloat(f)
	default:
		d.fail("cannot decode into %s", t)
	}
}

// numberFail reports a value that is not a number of t's kind, or one too
// large for it.
func (d *valueDecoder) numberFail(v any, t reflect.Type) {
	n, ok := v.(json.Number)
	if !ok {
		d.fail("cannot store %s in %s", jsonTypeName(v), t)
		return
	}
	if f, err := strconv.ParseFloat(string(n), 64); err == nil && f == math.Trunc(f) || t.Kind() == reflect.Float32 {
		d.fail("number %s is out of range for %s", n, t)
		return
	}
	d.fail("cannot store number %s in %s", n, t)
}

// structFields decodes a mapping into a struct's fields by their json names.
func (d *valueDecoder) structFields(v any, rv reflect.Value) {
	m, ok := v.(map[string]any)
	if !ok {
		d.fail("cannot store %s in %s", jsonTypeName(v), rv.Type())
		return
	}
	for _, f := range fieldsOf(rv.Type()) {
		if e, ok := m[f.name]; ok {
			d.push(PathElem{Key: f.name})
			if fv, ok := fieldByIndexAlloc(rv, f.index); ok {
				d.decode(e, fv)
			} else {
				d.fail("cannot set embedded pointer to unexported struct in %s", rv.Type())
			}
			d.pop()
		}
	}
}

// field is a struct field as a document names it.
type field struct {
	name  string
	index []int
}

func (d *valueDecoder) duration(v any, rv reflect.Value) {
	switch x := v.(type) {
	case json.Number:
		ms, err := strconv.ParseFloat(string(x), 64)
		if err != nil {
			d.fail("invalid duration %s", x)
			return
		}
		rv.SetInt(int64(time.Duration(ms * float64(time.Millisecond))))
	case string:
		dur, err := time.ParseDuration(x)
		if err != nil {
			d.fail("invalid duration %q: want milliseconds or a duration such as \"30s\"", x)
			return
		}
		rv.SetInt(int64(dur))
	case nil:
	default:
		d.fail("invalid duration: got %s", jsonTypeName(v))
	}
}

// evaluation reads the shared fields and keeps the rest for the registry.
func (d *valueDecoder) evaluation(v any, e *Evaluation) {
	m, ok := v.(map[string]any)
	if !ok {
		d.fail("cannot store %s in an evaluation", jsonTypeName(v))
		return
	}
	*e = Evaluation{}
	var c struct {
		Type        string   `json:"type"`
		Description string   `json:"description,omitempty"`
		Weight      *float64 `json:"weight,omitempty"`
		Critical    bool     `json:"critical,omitempty"`
	}
	d.decode(m, reflect.ValueOf(&c).Elem())
	e.Type, e.Description, e.Weight, e.Critical = c.Type, c.Description, c.Weight, c.Critical
	e.value = m
}

// fieldsOf lists the json names of a struct's fields (including those of
// embedded structs) with their index paths, in field order.
func fieldsOf(t reflect.Type) []field {
	if f, ok := fieldCache.Load(t); ok {
		return f.([]field)
	}
	var out []field
	at := map[string]int{} // name → position in out
	for _, f := range reflect.VisibleFields(t) {
		if !f.IsExported() && !f.Anonymous {
			continue
		}
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if name == "" && ft.Kind() == reflect.Struct {
				continue // its fields are promoted
			}
			if !f.IsExported() {
				continue
			}
		}
		if name == "" {
			name = f.Name
		}
		if i, seen := at[name]; seen {
			if len(out[i].index) > len(f.Index) {
				out[i].index = f.Index // the shallower field wins, as in encoding/json
			}
			continue
		}
		at[name] = len(out)
		out = append(out, field{name: name, index: f.Index})
	}
	fieldCache.Store(t, out)
	return out
}

var fieldCache sync.Map // reflect.Type → []field

// fieldByIndexAlloc is reflect.Value.FieldByIndex, allocating nil embedded
// struct pointers on the way; it reports false when one cannot be set (a
// pointer to an unexported struct type, which encoding/json refuses too).
func fieldByIndexAlloc(v reflect.Value, index []int) (reflect.Value, bool) {
	for i, x := range index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				if !v.CanSet() {
					return reflect.Value{}, false
				}
				v.Set(reflect.New(v.Type().Elem()))
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	return v, true
}

// jsonPlain copies a value for an `any` field the way encoding/json fills
// one: numbers become float64.
func jsonPlain(v any) any {
	switch x := v.(type) {
	case json.Number:
		f, _ := strconv.ParseFloat(string(x), 64)
		return f
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = jsonPlain(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = jsonPlain(e)
		}
		return out
	default:
		return v
	}
}

// jsonNumbers copies a value keeping numbers as json.Number, as a decoder
// with UseNumber does.
func jsonNumbers(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = jsonNumbers(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = jsonNumbers(e)
		}
		return out
	default:
		return v
	}
}

// extraValues returns the keys of a mapping that are not in known, as
// Character and LLMConfig keep them.
func extraValues(v any, known map[string]bool) map[string]any {
	m, _ := v.(map[string]any)
	var out map[string]any
	for k, e := range m {
		if known[k] {
			continue
		}
		if out == nil {
			out = map[string]any{}
		}
		out[k] = jsonNumbers(e)
	}
	return out
}
