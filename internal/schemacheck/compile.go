// Package schemacheck validates plain decoded JSON data against a JSON
// Schema (draft 2020-12) given as a decoded document, such as the schemas
// the scenario package generates with invopop/jsonschema.
//
// It exists because the general validator it replaced cost every process
// about 5 ms and 21,000 allocations of package initialization, and another
// 7 ms to compile our schemas, before the first file was read. This one
// compiles a schema in one walk, validates without allocating when the
// data is valid, and reports each violation with its instance location,
// schema location and a typed [Kind].
//
// Supported: every assertion and applicator keyword of draft 2020-12
// except unevaluatedProperties, unevaluatedItems and dynamic references,
// which Compile refuses rather than ignore; $ref within the document
// (JSON pointers: "#/$defs/Name"). "format" and the content keywords are
// annotations, as the specification makes them by default. Unknown
// keywords are ignored. Patterns are Go regular expressions.
package schemacheck

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"net/url"
	"regexp"
	"strconv"
	"strings"
)

// Schema is one compiled schema node. It is immutable after Compile and
// safe for concurrent use.
type Schema struct {
	// Location is the node's JSON pointer in the document ("" for the root).
	Location string

	boolean *bool // a true or false schema

	types     typeSet
	constVal  any
	hasConst  bool
	enum      []any
	hasEnum   bool
	ref       *Schema
	refString string

	properties        map[string]*Schema
	patternProperties []patternSchema
	additional        *Schema
	additionalFalse   bool // additionalProperties: false
	required          []string
	minProperties     int
	maxProperties     int
	propertyNames     *Schema
	dependentRequired []dependent
	dependentSchemas  []dependentSchema

	prefixItems []*Schema
	items       *Schema
	contains    *Schema
	minContains int
	maxContains int
	minItems    int
	maxItems    int
	uniqueItems bool

	minLength int
	maxLength int
	pattern   *regexp.Regexp

	minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf *number

	not              *Schema
	allOf            []*Schema
	anyOf            []*Schema
	oneOf            []*Schema
	ifS, thenS, elsS *Schema

	// sameInstance lists the subschemas applied to the same instance,
	// for the compile-time check against reference cycles.
	sameInstance []*Schema
}

type patternSchema struct {
	re     *regexp.Regexp
	schema *Schema
}

type dependent struct {
	property string
	required []string
}

type dependentSchema struct {
	property string
	schema   *Schema
}

// number is a numeric limit: exact for comparisons that floats cannot
// decide, and as a float for the ones they can.
type number struct {
	rat *big.Rat
	f   float64
}

// Compiled is a compiled schema document: its root and every node reached
// from it, by location.
type Compiled struct {
	root  *Schema
	doc   map[string]any
	nodes map[string]*Schema
	id    string
}

// Root returns the schema of the whole document.
func (c *Compiled) Root() *Schema { return c.root }

// Lookup returns the subschema at a JSON pointer into the document
// ("/$defs/Evaluation"), compiled on first use. It is not safe to call
// concurrently with itself; the schemas it returns are.
func (c *Compiled) Lookup(pointer string) (*Schema, error) {
	s, err := c.at(pointer)
	if err != nil {
		return nil, err
	}
	if err := checkCycles(s); err != nil {
		return nil, err
	}
	return s, nil
}

// CompileError is a schema that cannot be compiled, with where.
type CompileError struct {
	// Location is the JSON pointer of the offending node.
	Location string
	// Keyword is the offending keyword, if one is.
	Keyword string
	Err     error
}

func (e *CompileError) Error() string {
	if e.Keyword != "" {
		return fmt.Sprintf("schema at %q: %s: %v", "#"+e.Location, e.Keyword, e.Err)
	}
	return fmt.Sprintf("schema at %q: %v", "#"+e.Location, e.Err)
}

func (e *CompileError) Unwrap() error { return e.Err }

// Compile compiles a schema document. Numbers in it may be json.Number
// or any Go number type.
func Compile(doc map[string]any) (*Compiled, error) {
	c := &Compiled{doc: doc, nodes: map[string]*Schema{}}
	c.id, _ = doc["$id"].(string)
	root, err := c.at("")
	if err != nil {
		return nil, err
	}
	if err := checkCycles(root); err != nil {
		return nil, err
	}
	c.root = root
	return c, nil
}

// CompileJSON decodes a schema document from JSON and compiles it.
func CompileJSON(data []byte) (*Compiled, map[string]any, error) {
	d := json.NewDecoder(strings.NewReader(string(data)))
	d.UseNumber()
	var doc map[string]any
	if err := d.Decode(&doc); err != nil {
		return nil, nil, err
	}
	c, err := Compile(doc)
	return c, doc, err
}

// at compiles the node at pointer.
func (c *Compiled) at(pointer string) (*Schema, error) {
	if s, ok := c.nodes[pointer]; ok {
		return s, nil
	}
	v, err := resolvePointer(c.doc, pointer)
	if err != nil {
		return nil, &CompileError{Location: pointer, Err: err}
	}
	return c.node(pointer, v)
}

// node compiles v, the node at pointer.
func (c *Compiled) node(pointer string, v any) (*Schema, error) {
	if s, ok := c.nodes[pointer]; ok {
		return s, nil
	}
	s := &Schema{Location: pointer}
	c.nodes[pointer] = s // before compiling: references may come back here
	if err := c.compile(s, v); err != nil {
		delete(c.nodes, pointer)
		return nil, err
	}
	return s, nil
}

func resolvePointer(doc any, pointer string) (any, error) {
	if pointer == "" {
		return doc, nil
	}
	if !strings.HasPrefix(pointer, "/") {
		return nil, fmt.Errorf("%q is not a JSON pointer", pointer)
	}
	cur := doc
	for _, tok := range strings.Split(pointer[1:], "/") {
		tok = unescape(tok)
		switch n := cur.(type) {
		case map[string]any:
			v, ok := n[tok]
			if !ok {
				return nil, fmt.Errorf("no %q in the document", pointer)
			}
			cur = v
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(n) {
				return nil, fmt.Errorf("no %q in the document", pointer)
			}
			cur = n[i]
		default:
			return nil, fmt.Errorf("no %q in the document", pointer)
		}
	}
	return cur, nil
}

func escape(tok string) string {
	if !strings.ContainsAny(tok, "~/") {
		return tok
	}
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(tok)
}

func unescape(tok string) string {
	if !strings.Contains(tok, "~") {
		return tok
	}
	return strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
}

// refused are keywords whose meaning this validator does not implement;
// ignoring them would accept what the schema refuses.
var refused = []string{"unevaluatedProperties", "unevaluatedItems", "$dynamicRef", "$recursiveRef"}

func (c *Compiled) compile(s *Schema, v any) error {
	if b, ok := v.(bool); ok {
		s.boolean = &b
		return nil
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return &CompileError{Location: s.Location, Err: fmt.Errorf("a schema is an object or a boolean, not %T", v)}
	}
	for _, kw := range refused {
		if _, ok := obj[kw]; ok {
			return &CompileError{Location: s.Location, Keyword: kw, Err: fmt.Errorf("not supported")}
		}
	}
	sub := func(kw string) (*Schema, error) {
		v, ok := obj[kw]
		if !ok {
			return nil, nil
		}
		return c.node(s.Location+"/"+escape(kw), v)
	}
	subArr := func(kw string) ([]*Schema, error) {
		arr, _ := obj[kw].([]any)
		var out []*Schema
		for i, v := range arr {
			x, err := c.node(s.Location+"/"+kw+"/"+strconv.Itoa(i), v)
			if err != nil {
				return nil, err
			}
			out = append(out, x)
		}
		return out, nil
	}
	var err error

	// core --
	if ref, ok := obj["$ref"].(string); ok {
		s.refString = ref
		ptr, err := c.refPointer(ref)
		if err != nil {
			return &CompileError{Location: s.Location, Keyword: "$ref", Err: err}
		}
		if s.ref, err = c.at(ptr); err != nil {
			return err
		}
		s.sameInstance = append(s.sameInstance, s.ref)
	}

	// applicators on the same instance --
	if s.allOf, err = subArr("allOf"); err != nil {
		return err
	}
	if s.anyOf, err = subArr("anyOf"); err != nil {
		return err
	}
	if s.oneOf, err = subArr("oneOf"); err != nil {
		return err
	}
	if s.not, err = sub("not"); err != nil {
		return err
	}
	if _, ok := obj["if"]; ok {
		if s.ifS, err = sub("if"); err != nil {
			return err
		}
		if s.thenS, err = sub("then"); err != nil {
			return err
		}
		if s.elsS, err = sub("else"); err != nil {
			return err
		}
	}
	s.sameInstance = append(s.sameInstance, s.allOf...)
	s.sameInstance = append(s.sameInstance, s.anyOf...)
	s.sameInstance = append(s.sameInstance, s.oneOf...)
	for _, x := range []*Schema{s.not, s.ifS, s.thenS, s.elsS} {
		if x != nil {
			s.sameInstance = append(s.sameInstance, x)
		}
	}

	// objects --
	if props, ok := obj["properties"].(map[string]any); ok {
		s.properties = make(map[string]*Schema, len(props))
		for name, v := range props {
			if s.properties[name], err = c.node(s.Location+"/properties/"+escape(name), v); err != nil {
				return err
			}
		}
	}
	if pp, ok := obj["patternProperties"].(map[string]any); ok {
		for _, pat := range sortedKeys(pp) {
			re, err := regexp.Compile(pat)
			if err != nil {
				return &CompileError{Location: s.Location, Keyword: "patternProperties", Err: err}
			}
			x, err := c.node(s.Location+"/patternProperties/"+escape(pat), pp[pat])
			if err != nil {
				return err
			}
			s.patternProperties = append(s.patternProperties, patternSchema{re, x})
		}
	}
	switch ap := obj["additionalProperties"].(type) {
	case bool:
		s.additionalFalse = !ap
	case nil:
	default:
		if s.additional, err = sub("additionalProperties"); err != nil {
			return err
		}
	}
	if arr, ok := obj["required"].([]any); ok {
		s.required = strings_(arr)
	}
	s.minProperties = intVal(obj, "minProperties")
	s.maxProperties = intVal(obj, "maxProperties")
	if s.propertyNames, err = sub("propertyNames"); err != nil {
		return err
	}
	if m, ok := obj["dependentRequired"].(map[string]any); ok {
		for _, name := range sortedKeys(m) {
			if arr, ok := m[name].([]any); ok {
				s.dependentRequired = append(s.dependentRequired, dependent{name, strings_(arr)})
			}
		}
	}
	if m, ok := obj["dependentSchemas"].(map[string]any); ok {
		for _, name := range sortedKeys(m) {
			x, err := c.node(s.Location+"/dependentSchemas/"+escape(name), m[name])
			if err != nil {
				return err
			}
			s.dependentSchemas = append(s.dependentSchemas, dependentSchema{name, x})
			s.sameInstance = append(s.sameInstance, x)
		}
	}

	// arrays --
	if s.prefixItems, err = subArr("prefixItems"); err != nil {
		return err
	}
	if s.items, err = sub("items"); err != nil {
		return err
	}
	if s.contains, err = sub("contains"); err != nil {
		return err
	}
	s.minContains, s.maxContains = absent, absent
	if s.contains != nil {
		s.minContains = intVal(obj, "minContains")
		s.maxContains = intVal(obj, "maxContains")
	}
	s.minItems = intVal(obj, "minItems")
	s.maxItems = intVal(obj, "maxItems")
	s.uniqueItems, _ = obj["uniqueItems"].(bool)

	// strings --
	s.minLength = intVal(obj, "minLength")
	s.maxLength = intVal(obj, "maxLength")
	if pat, ok := obj["pattern"].(string); ok {
		if s.pattern, err = regexp.Compile(pat); err != nil {
			return &CompileError{Location: s.Location, Keyword: "pattern", Err: err}
		}
	}

	// numbers --
	s.minimum = numVal(obj, "minimum")
	s.maximum = numVal(obj, "maximum")
	s.exclusiveMinimum = numVal(obj, "exclusiveMinimum")
	s.exclusiveMaximum = numVal(obj, "exclusiveMaximum")
	s.multipleOf = numVal(obj, "multipleOf")

	// any instance --
	switch t := obj["type"].(type) {
	case string:
		s.types = typeFromName(t)
	case []any:
		for _, x := range t {
			if name, ok := x.(string); ok {
				s.types |= typeFromName(name)
			}
		}
	}
	if v, ok := obj["const"]; ok {
		s.constVal, s.hasConst = v, true
	}
	if arr, ok := obj["enum"].([]any); ok {
		s.enum, s.hasEnum = arr, true
	}
	return nil
}

// refPointer turns a reference into a JSON pointer into this document.
func (c *Compiled) refPointer(ref string) (string, error) {
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok {
		base, f, found := strings.Cut(ref, "#")
		if !found || c.id == "" || strings.TrimSuffix(base, "#") != strings.TrimSuffix(c.id, "#") {
			return "", fmt.Errorf("%q: only references within the document are supported", ref)
		}
		frag = f
	}
	frag, err := url.PathUnescape(frag)
	if err != nil {
		return "", fmt.Errorf("%q: %v", ref, err)
	}
	if frag != "" && !strings.HasPrefix(frag, "/") {
		return "", fmt.Errorf("%q: anchors are not supported; refer by JSON pointer", ref)
	}
	return frag, nil
}

// checkCycles refuses a schema whose applicators come back to a node
// without moving into the instance ($ref to itself): validating with it
// would never end.
func checkCycles(root *Schema) error {
	const (
		visiting = 1
		done     = 2
	)
	state := map[*Schema]int{}
	var visit func(s *Schema) error
	visit = func(s *Schema) error {
		switch state[s] {
		case visiting:
			return &CompileError{Location: s.Location, Keyword: "$ref", Err: fmt.Errorf("reference cycle: the schema applies itself to the same value")}
		case done:
			return nil
		}
		state[s] = visiting
		for _, x := range s.sameInstance {
			if err := visit(x); err != nil {
				return err
			}
		}
		state[s] = done
		for _, x := range s.children() {
			if err := visit(x); err != nil {
				return err
			}
		}
		return nil
	}
	return visit(root)
}

// children are the subschemas applied to parts of the instance.
func (s *Schema) children() []*Schema {
	var out []*Schema
	for _, x := range s.properties {
		out = append(out, x)
	}
	for _, p := range s.patternProperties {
		out = append(out, p.schema)
	}
	out = append(out, s.prefixItems...)
	for _, x := range []*Schema{s.additional, s.propertyNames, s.items, s.contains} {
		if x != nil {
			out = append(out, x)
		}
	}
	return out
}

func strings_(arr []any) []string {
	var out []string
	for _, x := range arr {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// absent marks an integer keyword the schema does not have.
const absent = math.MinInt

// intVal reads an integer keyword; absent when missing or not an integer
// (the keyword is then ignored, as other validators do).
func intVal(obj map[string]any, kw string) int {
	n := numVal(obj, kw)
	if n == nil || !n.rat.IsInt() || !n.rat.Num().IsInt64() {
		return absent
	}
	return int(n.rat.Num().Int64())
}

func numVal(obj map[string]any, kw string) *number {
	v, ok := obj[kw]
	if !ok || !isNumber(v) {
		return nil
	}
	r, ok := new(big.Rat).SetString(fmt.Sprint(v))
	if !ok {
		return nil
	}
	f, _ := r.Float64()
	return &number{rat: r, f: f}
}

func sortedKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sortStrings(out)
	return out
}
