package matrix

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/agenteval/agenteval/internal/textdist"
	"github.com/agenteval/agenteval/scenario"
)

// step is one move from a container to a slot inside it, in Go terms: a
// struct field, a list element or a map entry. Pointers and interfaces on
// the way are not steps; they are followed (and copied) transparently.
type step struct {
	kind  stepKind
	field int           // struct field index, for stepField
	index int           // list index, for stepIndex
	key   reflect.Value // map key, for stepKey
}

type stepKind uint8

const (
	stepField stepKind = iota
	stepIndex
	stepKey
)

// same reports whether two steps lead to the same slot.
func (s step) same(o step) bool {
	if s.kind != o.kind {
		return false
	}
	switch s.kind {
	case stepField:
		return s.field == o.field
	case stepIndex:
		return s.index == o.index
	default:
		return s.key.String() == o.key.String()
	}
}

// resolveError says why a path does not lead anywhere in the base scenario.
type resolveError struct {
	code       string // diagnostic code; "" means path-missing
	msg        string
	suggestion string
}

func (e *resolveError) Error() string { return e.msg }

// resolver turns field paths into steps over the typed scenario model, with
// a cache of each struct type's JSON field names.
type resolver struct {
	fields map[reflect.Type]map[string]int
}

func newResolver() *resolver { return &resolver{fields: map[reflect.Type]map[string]int{}} }

var evaluationType = reflect.TypeFor[scenario.Evaluation]()

// resolve walks p from root (a *scenario.Scenario) and returns the steps
// that reach its slot. Every element must exist: struct fields exist by
// their JSON name (whatever their value), list indexes must be in range, map
// keys must be present, and everything on the way must be set. A matrix
// varies values; it never creates them.
func (r *resolver) resolve(root reflect.Value, p scenario.Path) ([]step, error) {
	cur := root
	steps := make([]step, 0, len(p)+1)
	for i, e := range p {
		where := describePrefix(p[:i])
		for cur.Kind() == reflect.Pointer || cur.Kind() == reflect.Interface {
			if cur.IsNil() {
				return nil, &resolveError{msg: fmt.Sprintf("%s is not set in the base scenario, and a matrix varies values without creating them; vary %s as a whole instead", where, where)}
			}
			cur = cur.Elem()
		}
		switch cur.Kind() {
		case reflect.Struct:
			if e.IsIndex {
				return nil, &resolveError{msg: fmt.Sprintf("%s is an object, not a list; name one of its fields instead of [%d]", where, e.Index)}
			}
			more, next, err := r.structStep(cur, e.Key, p[:i+1], where)
			if err != nil {
				return nil, err
			}
			steps = append(steps, more...)
			cur = next
		case reflect.Slice, reflect.Array:
			if !e.IsIndex {
				return nil, &resolveError{msg: fmt.Sprintf("%s is a list, not an object; index it as %s[0]", where, p[:i])}
			}
			if n := cur.Len(); e.Index >= n {
				if n == 0 {
					return nil, &resolveError{msg: fmt.Sprintf("index %d is out of range: %s is empty in the base scenario", e.Index, where)}
				}
				return nil, &resolveError{msg: fmt.Sprintf("index %d is out of range: %s has %d element(s) in the base scenario (indexes 0 to %d)", e.Index, where, n, n-1)}
			}
			steps = append(steps, step{kind: stepIndex, index: e.Index})
			cur = cur.Index(e.Index)
		case reflect.Map:
			key, err := mapKey(cur, e, p[:i+1], where)
			if err != nil {
				if hint := dottedKey(cur, p, i); hint != "" {
					return nil, &resolveError{msg: fmt.Sprintf("%s has no key %q; a key with dots must be quoted: %s", where, e.Key, hint)}
				}
				return nil, err
			}
			steps = append(steps, step{kind: stepKey, key: key})
			cur = cur.MapIndex(key)
		default:
			return nil, &resolveError{msg: fmt.Sprintf("%s is a single value (%s), so it has no %s", where, kindName(cur), describeElem(e))}
		}
	}
	return steps, nil
}

// structStep finds the field named key (its JSON name). Keys that no field
// names go where the type keeps its other keys: an evaluation's own
// parameters (Params, a pointer to the type's struct) or the free-form
// Extra map of a character or model.
func (r *resolver) structStep(v reflect.Value, key string, p scenario.Path, where string) ([]step, reflect.Value, error) {
	t := v.Type()
	names := r.fieldNames(t)
	if t == evaluationType && key == "type" {
		return nil, reflect.Value{}, &resolveError{code: "path-forbidden", msg: fmt.Sprintf("an evaluation's type cannot be varied on its own, since its other fields belong to the type; vary the whole evaluation (%s) instead", p[:len(p)-1])}
	}
	if fi, ok := names[key]; ok {
		return []step{{kind: stepField, field: fi}}, v.Field(fi), nil
	}
	candidates := slices.Sorted(maps.Keys(names))
	if f, ok := t.FieldByName("Params"); ok && f.Type.Kind() == reflect.Interface && len(f.Index) == 1 {
		pv := v.Field(f.Index[0])
		if !pv.IsNil() && pv.Elem().Kind() == reflect.Pointer && !pv.Elem().IsNil() && pv.Elem().Elem().Kind() == reflect.Struct {
			ps := pv.Elem().Elem()
			pnames := r.fieldNames(ps.Type())
			if fi, ok := pnames[key]; ok {
				return []step{{kind: stepField, field: f.Index[0]}, {kind: stepField, field: fi}}, ps.Field(fi), nil
			}
			candidates = append(candidates, slices.Sorted(maps.Keys(pnames))...)
		}
	}
	if f, ok := t.FieldByName("Extra"); ok && f.Type.Kind() == reflect.Map && f.Type.Key().Kind() == reflect.String && len(f.Index) == 1 {
		ev := v.Field(f.Index[0])
		k := reflect.ValueOf(key).Convert(f.Type.Key())
		if x := ev.MapIndex(k); x.IsValid() {
			return []step{{kind: stepField, field: f.Index[0]}, {kind: stepKey, key: k}}, x, nil
		}
		for _, k := range ev.MapKeys() {
			candidates = append(candidates, k.String())
		}
	}
	return nil, reflect.Value{}, &resolveError{
		msg:        fmt.Sprintf("%s has no field %q", where, key),
		suggestion: textdist.Suggest(key, candidates),
	}
}

// mapKey returns the key value for e in map m, which must be present.
func mapKey(m reflect.Value, e scenario.PathElem, p scenario.Path, where string) (reflect.Value, error) {
	kt := m.Type().Key()
	if kt.Kind() != reflect.String {
		return reflect.Value{}, &resolveError{msg: fmt.Sprintf("%s has keys of type %s, which paths cannot address", where, kt)}
	}
	if e.IsIndex {
		return reflect.Value{}, &resolveError{msg: fmt.Sprintf("%s is a map, not a list; address an entry by its key, as in %s[\"name\"]", where, p[:len(p)-1])}
	}
	k := reflect.ValueOf(e.Key).Convert(kt)
	if m.MapIndex(k).IsValid() {
		return k, nil
	}
	keys := make([]string, 0, m.Len())
	for _, k := range m.MapKeys() {
		keys = append(keys, k.String())
	}
	slices.Sort(keys)
	msg := fmt.Sprintf("%s has no key %q in the base scenario", where, e.Key)
	if len(keys) > 0 && len(keys) <= 10 {
		msg += fmt.Sprintf(" (it has %s)", quoteAll(keys))
	}
	return reflect.Value{}, &resolveError{msg: msg, suggestion: textdist.Suggest(e.Key, keys)}
}

// fieldNames maps the JSON names of t's exported fields to their indexes.
func (r *resolver) fieldNames(t reflect.Type) map[string]int {
	if m, ok := r.fields[t]; ok {
		return m
	}
	m := map[string]int{}
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() || f.Anonymous {
			continue
		}
		tag := f.Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		if tag == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		m[name] = i
	}
	r.fields[t] = m
	return m
}

// get follows steps from root and returns the slot's value, following
// pointers and interfaces on the way.
func get(root reflect.Value, steps []step) reflect.Value {
	cur := root
	for _, s := range steps {
		for cur.Kind() == reflect.Pointer || cur.Kind() == reflect.Interface {
			cur = cur.Elem()
		}
		switch s.kind {
		case stepField:
			cur = cur.Field(s.field)
		case stepIndex:
			cur = cur.Index(s.index)
		case stepKey:
			cur = cur.MapIndex(s.key)
		}
	}
	return cur
}

func describePrefix(p scenario.Path) string {
	if len(p) == 0 {
		return "the scenario"
	}
	return p.String()
}

func describeElem(e scenario.PathElem) string {
	if e.IsIndex {
		return fmt.Sprintf("index [%d]", e.Index)
	}
	return fmt.Sprintf("field %q", e.Key)
}

func kindName(v reflect.Value) string {
	switch v.Kind() {
	case reflect.String:
		return "text"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return "a number"
	default:
		return v.Kind().String()
	}
}

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}

// dottedKey returns the quoted spelling of p when the keys from p[i] on,
// joined with dots, name an entry of map m (setup.virtual_fs.data.json
// meant setup.virtual_fs["data.json"]); "" otherwise.
func dottedKey(m reflect.Value, p scenario.Path, i int) string {
	if m.Type().Key().Kind() != reflect.String {
		return ""
	}
	joined := ""
	for j := i; j < len(p) && !p[j].IsIndex; j++ {
		if j > i {
			joined += "."
		}
		joined += p[j].Key
		if j > i && m.MapIndex(reflect.ValueOf(joined).Convert(m.Type().Key())).IsValid() {
			return append(p[:i:i].Key(joined), p[j+1:]...).String()
		}
	}
	return ""
}
