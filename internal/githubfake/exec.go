package githubfake

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"time"

	"github.com/vektah/gqlparser/v2/ast"
)

// object is a value the executor can select fields from. Each model type
// implements resolve with one case per GraphQL field it serves; args are the
// field's arguments with variables and schema defaults applied.
type object interface {
	resolve(ec *execCtx, field string, args map[string]any) (any, error)
}

// typed is implemented by objects that can stand where the schema declares an
// interface or union, so the executor knows their concrete GraphQL type.
type typed interface {
	gqlType() string
}

// gqlError is one entry of a GraphQL response's "errors" list, shaped like
// GitHub's (type is GitHub's extension, for example NOT_FOUND).
type gqlError struct {
	Type      string     `json:"type,omitempty"`
	Path      []any      `json:"path,omitempty"`
	Locations []location `json:"locations,omitempty"`
	Message   string     `json:"message"`
}

type location struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

// fieldError is what resolvers return to produce a typed GraphQL error.
type fieldError struct {
	typ string
	msg string
}

// Error returns the message GitHub would send.
func (e *fieldError) Error() string { return e.msg }

func errNotFound(format string, args ...any) error {
	return &fieldError{typ: "NOT_FOUND", msg: fmt.Sprintf(format, args...)}
}

func errUnprocessable(format string, args ...any) error {
	return &fieldError{typ: "UNPROCESSABLE", msg: fmt.Sprintf(format, args...)}
}

// execCtx carries one request's execution: the schema, the coerced
// variables, the model (locked by the caller) and the errors collected.
type execCtx struct {
	schema *ast.Schema
	vars   map[string]any
	st     *state
	viewer string // login the request acts as
	errs   []gqlError
}

// orderedMap is a JSON object that keeps the query's field order, so
// responses read like GitHub's.
type orderedMap struct {
	keys []string
	vals []any
}

func (m *orderedMap) set(k string, v any) {
	m.keys = append(m.keys, k)
	m.vals = append(m.vals, v)
}

// MarshalJSON writes the fields in insertion order.
func (m *orderedMap) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	if err := appendJSON(&buf, m); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// appendJSON encodes a completed value (ordered maps, lists and scalars)
// straight into buf: nesting MarshalJSON calls would make encoding/json
// re-validate every level of the tree.
func appendJSON(buf *bytes.Buffer, v any) error {
	switch v := v.(type) {
	case nil:
		buf.WriteString("null")
	case *orderedMap:
		buf.WriteByte('{')
		for i, k := range v.keys {
			if i > 0 {
				buf.WriteByte(',')
			}
			writeJSONString(buf, k)
			buf.WriteByte(':')
			if err := appendJSON(buf, v.vals[i]); err != nil {
				return err
			}
		}
		buf.WriteByte('}')
	case []any:
		buf.WriteByte('[')
		for i, x := range v {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := appendJSON(buf, x); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
	case string:
		writeJSONString(buf, v)
	case bool:
		buf.WriteString(strconv.FormatBool(v))
	case int:
		buf.WriteString(strconv.Itoa(v))
	case int64:
		buf.WriteString(strconv.FormatInt(v, 10))
	default:
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		buf.Write(b)
	}
	return nil
}

func writeJSONString(buf *bytes.Buffer, s string) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x80 || c == '<' || c == '>' || c == '&' {
			b, _ := json.Marshal(s)
			buf.Write(b)
			return
		}
	}
	buf.WriteByte('"')
	buf.WriteString(s)
	buf.WriteByte('"')
}

// fieldGroup is one response key with every field node selected under it
// (the same key may be selected through several fragments).
type fieldGroup struct {
	key    string
	fields []*ast.Field
}

// collectFields flattens fragments whose type condition applies to typeName
// and groups fields by response key, honouring @skip and @include.
func (ec *execCtx) collectFields(typeName string, sels ast.SelectionSet, groups []fieldGroup) []fieldGroup {
	for _, sel := range sels {
		switch sel := sel.(type) {
		case *ast.Field:
			if !ec.included(sel.Directives) {
				continue
			}
			key := sel.Alias
			if key == "" {
				key = sel.Name
			}
			if i := findGroup(groups, key); i >= 0 {
				groups[i].fields = append(groups[i].fields, sel)
				continue
			}
			groups = append(groups, fieldGroup{key: key, fields: []*ast.Field{sel}})
		case *ast.FragmentSpread:
			if !ec.included(sel.Directives) || sel.Definition == nil {
				continue
			}
			if ec.applies(sel.Definition.TypeCondition, typeName) {
				groups = ec.collectFields(typeName, sel.Definition.SelectionSet, groups)
			}
		case *ast.InlineFragment:
			if !ec.included(sel.Directives) {
				continue
			}
			if sel.TypeCondition == "" || ec.applies(sel.TypeCondition, typeName) {
				groups = ec.collectFields(typeName, sel.SelectionSet, groups)
			}
		}
	}
	return groups
}

// findGroup returns the index of the group for key, or -1. Selection sets
// are small, so a scan beats a map.
func findGroup(groups []fieldGroup, key string) int {
	for i := range groups {
		if groups[i].key == key {
			return i
		}
	}
	return -1
}

func (ec *execCtx) included(dirs ast.DirectiveList) bool {
	for _, d := range dirs {
		if d.Name != "skip" && d.Name != "include" {
			continue
		}
		v, _ := d.ArgumentMap(ec.vars)["if"].(bool)
		if d.Name == "skip" && v || d.Name == "include" && !v {
			return false
		}
	}
	return true
}

// applies reports whether a fragment on cond applies to an object of the
// concrete type typeName.
func (ec *execCtx) applies(cond, typeName string) bool {
	if cond == typeName {
		return true
	}
	def := ec.schema.Types[cond]
	if def == nil || !def.IsAbstractType() {
		return false
	}
	for _, p := range ec.schema.GetPossibleTypes(def) {
		if p.Name == typeName {
			return true
		}
	}
	return false
}

// selectObject resolves sels on obj, whose concrete type is typeName. ok is
// false when a non-null field came back null, so the caller must null out
// this object too (GraphQL's null propagation).
func (ec *execCtx) selectObject(obj object, typeName string, sels ast.SelectionSet, path *pathNode) (*orderedMap, bool) {
	groups := ec.collectFields(typeName, sels, make([]fieldGroup, 0, len(sels)))
	out := &orderedMap{keys: make([]string, 0, len(groups)), vals: make([]any, 0, len(groups))}
	for _, g := range groups {
		f := g.fields[0]
		if f.Name == "__typename" {
			out.set(g.key, typeName)
			continue
		}
		fpath := &pathNode{parent: path, key: g.key}
		var args map[string]any
		if f.Definition != nil && len(f.Definition.Arguments) > 0 {
			args = f.ArgumentMap(ec.vars)
		}
		val, err := obj.resolve(ec, f.Name, args)
		if err != nil {
			ec.addError(err, fpath, f.Position)
			val = nil
		}
		completed, ok := ec.complete(f.Definition.Type, val, g.fields, fpath, err != nil)
		if !ok {
			return nil, false
		}
		out.set(g.key, completed)
	}
	return out, true
}

// complete turns a resolver's Go value into the JSON value for typ.
// errored says an error was already reported for this position, so a null
// in a non-null position must not be reported twice.
func (ec *execCtx) complete(typ *ast.Type, val any, fields []*ast.Field, path *pathNode, errored bool) (any, bool) {
	if items, ok := val.([]any); ok && items == nil && typ.Elem != nil {
		val = []any{}
	}
	if isNil(val) {
		if typ.NonNull {
			if !errored {
				ec.errs = append(ec.errs, gqlError{
					Path:    path.slice(),
					Message: fmt.Sprintf("Cannot return null for non-nullable field %s", fields[0].Name),
				})
			}
			return nil, false
		}
		return nil, true
	}
	if typ.Elem != nil {
		items, ok := val.([]any)
		if !ok {
			ec.errs = append(ec.errs, gqlError{Path: path.slice(), Message: fmt.Sprintf("githubtest: field %s resolved to %T, want a list", fields[0].Name, val)})
			return nil, !typ.NonNull
		}
		out := make([]any, len(items))
		for i, item := range items {
			v, ok := ec.complete(typ.Elem, item, fields, &pathNode{parent: path, index: i, isIndex: true}, false)
			if !ok {
				return nil, !typ.NonNull
			}
			out[i] = v
		}
		return out, true
	}
	def := ec.schema.Types[typ.NamedType]
	if def.IsLeafType() {
		return leafValue(val), true
	}
	obj, ok := val.(object)
	if !ok {
		ec.errs = append(ec.errs, gqlError{Path: path.slice(), Message: fmt.Sprintf("githubtest: field %s resolved to %T, want an object", fields[0].Name, val)})
		return nil, !typ.NonNull
	}
	typeName := def.Name
	if def.IsAbstractType() {
		t, ok := val.(typed)
		if !ok || !ec.applies(def.Name, t.gqlType()) {
			ec.errs = append(ec.errs, gqlError{Path: path.slice(), Message: fmt.Sprintf("githubtest: %T cannot stand for %s", val, def.Name)})
			return nil, !typ.NonNull
		}
		typeName = t.gqlType()
	}
	var sels ast.SelectionSet
	if len(fields) == 1 {
		sels = fields[0].SelectionSet
	} else {
		for _, f := range fields {
			sels = append(sels, f.SelectionSet...)
		}
	}
	m, ok := ec.selectObject(obj, typeName, sels, path)
	if !ok {
		return nil, !typ.NonNull
	}
	return m, true
}

func (ec *execCtx) addError(err error, path *pathNode, pos *ast.Position) {
	e := gqlError{Path: path.slice(), Message: err.Error()}
	var fe *fieldError
	if errors.As(err, &fe) {
		e.Type = fe.typ
	}
	if pos != nil {
		e.Locations = []location{{Line: pos.Line, Column: pos.Column}}
	}
	ec.errs = append(ec.errs, e)
}

// leafValue converts model scalars to their JSON form.
func leafValue(v any) any {
	switch v := v.(type) {
	case time.Time:
		return v.UTC().Format(time.RFC3339)
	case *time.Time:
		return v.UTC().Format(time.RFC3339)
	}
	return v
}

func isNil(v any) bool {
	if v == nil {
		return true
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Interface:
		return rv.IsNil()
	}
	return false
}

// pathNode is one step of a response path, linked to its parent. Paths
// are built as the executor descends and turned into a list only when an
// error needs one.
type pathNode struct {
	parent  *pathNode
	key     string
	index   int
	isIndex bool
}

// slice returns the path from the root, as GraphQL errors report it.
func (p *pathNode) slice() []any {
	var out []any
	for n := p; n != nil; n = n.parent {
		if n.isIndex {
			out = append(out, n.index)
		} else {
			out = append(out, n.key)
		}
	}
	slices.Reverse(out)
	return out
}
