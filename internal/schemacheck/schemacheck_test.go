package schemacheck

import (
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	santhosh "github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

func decode(t testing.TB, s string) any {
	t.Helper()
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var v any
	require.NoError(t, d.Decode(&v), s)
	return v
}

// keywordCases hold, per keyword, a schema and values it accepts and refuses.
var keywordCases = []struct {
	name   string
	schema string
	valid  []string
	bad    []string
	kind   Kind // the kind of the first leaf of every bad value
}{
	{"type", `{"type":"string"}`, []string{`"x"`}, []string{`1`, `null`, `{}`, `[]`, `true`}, &Type{}},
	{"type list", `{"type":["string","null"]}`, []string{`"x"`, `null`}, []string{`1`, `false`}, &Type{}},
	{"integer", `{"type":"integer"}`, []string{`1`, `1.0`, `-3`, `1e2`, `12345678901234567890`}, []string{`1.5`, `"1"`, `1e-2`}, &Type{}},
	{"number", `{"type":"number"}`, []string{`1`, `1.5`}, []string{`"1"`}, &Type{}},
	{"const", `{"const":"a"}`, []string{`"a"`}, []string{`"b"`, `1`}, &Const{}},
	{"const number", `{"const":1}`, []string{`1`, `1.0`, `10e-1`}, []string{`2`, `"1"`}, &Const{}},
	{"const object", `{"const":{"a":[1,2]}}`, []string{`{"a":[1,2.0]}`}, []string{`{"a":[1]}`, `{"a":[2,1]}`, `{}`}, &Const{}},
	{"enum", `{"enum":["a","b",3,null]}`, []string{`"a"`, `3`, `3.0`, `null`}, []string{`"c"`, `true`, `4`}, &Enum{}},
	{"enum one", `{"enum":["a"]}`, nil, []string{`"c"`}, &Enum{}},
	{"enum composite", `{"enum":[[1],{"a":1}]}`, []string{`[1]`, `{"a":1}`}, []string{`[2]`}, &Enum{}},
	{"required", `{"required":["a","b"]}`, []string{`{"a":1,"b":2}`, `"not an object"`}, []string{`{"a":1}`, `{}`}, &Required{}},
	{"additionalProperties false", `{"properties":{"a":{}},"additionalProperties":false}`, []string{`{"a":1}`, `{}`}, []string{`{"b":1}`, `{"a":1,"c":2,"b":3}`}, &AdditionalProperties{}},
	{"additionalProperties schema", `{"properties":{"a":{}},"additionalProperties":{"type":"integer"}}`, []string{`{"a":"x","b":1}`}, []string{`{"b":"x"}`}, &Type{}},
	{"properties", `{"properties":{"a":{"type":"string"},"b":{"minimum":3}}}`, []string{`{"a":"x","b":4}`, `{"c":1}`}, []string{`{"a":1}`, `{"a":1,"b":1}`}, &Type{}},
	{"patternProperties", `{"patternProperties":{"^x-":{"type":"string"}},"additionalProperties":false}`, []string{`{"x-a":"s"}`}, []string{`{"x-a":1}`}, &Type{}},
	{"minProperties", `{"minProperties":2}`, []string{`{"a":1,"b":2}`}, []string{`{"a":1}`}, &MinProperties{}},
	{"maxProperties", `{"maxProperties":1}`, []string{`{"a":1}`}, []string{`{"a":1,"b":2}`}, &MaxProperties{}},
	{"propertyNames", `{"propertyNames":{"pattern":"^[a-z]+$"}}`, []string{`{"ab":1}`}, []string{`{"A":1}`}, &PropertyNames{}},
	{"dependentRequired", `{"dependentRequired":{"a":["b","c"]}}`, []string{`{"a":1,"b":1,"c":1}`, `{"b":1}`}, []string{`{"a":1,"b":1}`}, &DependentRequired{}},
	{"dependentSchemas", `{"dependentSchemas":{"a":{"required":["b"]}}}`, []string{`{"a":1,"b":1}`, `{}`}, []string{`{"a":1}`}, &Required{}},
	{"items", `{"items":{"type":"string"}}`, []string{`["a","b"]`, `[]`}, []string{`["a",1]`}, &Type{}},
	{"items false", `{"items":false}`, []string{`[]`}, []string{`[1]`}, &FalseSchema{}},
	{"prefixItems", `{"prefixItems":[{"type":"string"},{"type":"number"}],"items":false}`, []string{`["a",1]`, `["a"]`}, []string{`[1]`, `[1,"a"]`}, &Type{}},
	{"prefixItems then items false", `{"prefixItems":[{"type":"string"}],"items":false}`, []string{`["a"]`}, []string{`["a",1]`}, &FalseSchema{}},
	{"minItems", `{"minItems":2}`, []string{`[1,2]`}, []string{`[1]`}, &MinItems{}},
	{"maxItems", `{"maxItems":1}`, []string{`[1]`}, []string{`[1,2]`}, &MaxItems{}},
	{"uniqueItems", `{"uniqueItems":true}`, []string{`[1,2,"1"]`, `[{"a":1},{"a":2}]`}, []string{`[1,2,1.0]`, `[{"a":1},{"a":1}]`, `[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,5.0]`}, &UniqueItems{}},
	{"contains", `{"contains":{"type":"string"}}`, []string{`[1,"a"]`}, []string{`[1,2]`, `[]`}, &Contains{}},
	{"minContains", `{"contains":{"type":"string"},"minContains":2}`, []string{`["a","b",1]`}, []string{`["a",1]`}, &MinContains{}},
	{"maxContains", `{"contains":{"type":"string"},"maxContains":1}`, []string{`["a",1]`}, []string{`["a","b"]`}, &MaxContains{}},
	{"minLength", `{"minLength":2}`, []string{`"ab"`, `"é!"`, `3`}, []string{`"a"`, `""`, `"é"`}, &MinLength{}},
	{"maxLength", `{"maxLength":2}`, []string{`"éé"`}, []string{`"abc"`}, &MaxLength{}},
	{"pattern", `{"pattern":"^[a-z]+-\\d{3}$"}`, []string{`"ab-123"`}, []string{`"ab-12"`, `"x ab-123"`}, &Pattern{}},
	{"pattern unanchored", `{"pattern":"b"}`, []string{`"abc"`}, []string{`"ac"`}, &Pattern{}},
	{"minimum", `{"minimum":0.5}`, []string{`0.5`, `1`, `"x"`}, []string{`0.49999999999999999999`, `-1`, `0`}, &Minimum{}},
	{"maximum", `{"maximum":10}`, []string{`10`, `10.0`, `-5`}, []string{`10.000000000000000001`, `11`}, &Maximum{}},
	{"exclusiveMinimum", `{"exclusiveMinimum":0}`, []string{`0.1`}, []string{`0`, `-0.5`}, &ExclusiveMinimum{}},
	{"exclusiveMaximum", `{"exclusiveMaximum":1}`, []string{`0.9`}, []string{`1`, `2`}, &ExclusiveMaximum{}},
	{"multipleOf", `{"multipleOf":0.1}`, []string{`0.3`, `1`, `20`}, []string{`0.35`}, &MultipleOf{}},
	{"multipleOf integer", `{"multipleOf":3}`, []string{`9`, `-3`, `0`}, []string{`10`, `1.5`}, &MultipleOf{}},
	{"numbers in messages", `{"exclusiveMaximum":1000000,"multipleOf":0.00001}`, []string{`5`, `-1e30`, `999999.99999`}, []string{`1234567.5`, `20000000000000000000000`, `1e6`}, &ExclusiveMaximum{}},
	{"lengths in messages", `{"maxLength":1000,"minItems":1500}`, []string{`"x"`}, []string{`"` + strings.Repeat("é", 1234) + `"`}, &MaxLength{}},
	{"counts in messages", `{"maxLength":1000,"minItems":1500}`, nil, []string{`[1]`}, &MinItems{}},
	{"not", `{"not":{"type":"string"}}`, []string{`1`}, []string{`"x"`}, &Not{}},
	{"allOf", `{"allOf":[{"type":"string"},{"minLength":2}]}`, []string{`"ab"`}, []string{`"a"`, `1`}, &AllOf{}},
	{"anyOf", `{"anyOf":[{"type":"string"},{"type":"number","minimum":0}]}`, []string{`"a"`, `1`}, []string{`-1`, `null`}, &AnyOf{}},
	{"oneOf", `{"oneOf":[{"type":"string"},{"type":"object","required":["a"]}]}`, []string{`"a"`, `{"a":1}`}, []string{`{}`, `1`}, &OneOf{}},
	{"oneOf two match", `{"oneOf":[{"type":"number"},{"minimum":0}]}`, []string{`-1`, `"x"`}, []string{`1`}, &OneOf{}},
	{"if then else", `{"if":{"properties":{"t":{"const":"a"}},"required":["t"]},"then":{"required":["x"]},"else":{"required":["y"]}}`, []string{`{"t":"a","x":1}`, `{"t":"b","y":1}`}, []string{`{"t":"a"}`, `{"t":"b"}`}, &Required{}},
	{"ref", `{"$defs":{"S":{"type":"string","minLength":1}},"properties":{"a":{"$ref":"#/$defs/S"}}}`, []string{`{"a":"x"}`}, []string{`{"a":""}`, `{"a":1}`}, &MinLength{}},
	{"ref recursive", `{"$defs":{"N":{"type":"object","properties":{"next":{"$ref":"#/$defs/N"},"v":{"type":"integer"}}}},"$ref":"#/$defs/N"}`, []string{`{"next":{"next":{"v":1}}}`}, []string{`{"next":{"next":{"v":"x"}}}`}, &Type{}},
	{"false schema", `false`, nil, []string{`1`}, &FalseSchema{}},
	{"true schema", `true`, []string{`1`, `{}`}, nil, nil},
	{"format is an annotation", `{"format":"email","title":"t","description":"d","default":1,"$comment":"c","unknownKeyword":5}`, []string{`"not an email"`}, nil, nil},
	{"several failures", `{"type":"object","required":["a"],"properties":{"b":{"type":"string"},"c":{"enum":["x"]}},"additionalProperties":false,"minProperties":5}`, nil, []string{`{"b":1,"c":"y","d":1}`}, &Group{}},
}

func TestKeywords(t *testing.T) {
	t.Parallel()
	for _, tc := range keywordCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := compileDoc(t, tc.schema)
			for _, v := range tc.valid {
				assert.NoError(t, c.Root().Validate(decode(t, v)), v)
				assert.True(t, c.Root().Valid(decode(t, v)), v)
			}
			for _, v := range tc.bad {
				err := c.Root().Validate(decode(t, v))
				require.Error(t, err, v)
				var e *Error
				require.ErrorAs(t, err, &e)
				assert.True(t, hasKind(e, tc.kind), "%s: want a %T in\n%v", v, tc.kind, err)
				assert.False(t, c.Root().Valid(decode(t, v)), v)
			}
			for _, v := range append(slices.Clone(tc.valid), tc.bad...) {
				compareWithSanthosh(t, tc.schema, v)
			}
		})
	}
}

// hasKind reports whether e or an error beneath has k's kind, or is a
// type mismatch (values of another type than the keyword applies to).
func hasKind(e *Error, k Kind) bool {
	if fmt.Sprintf("%T", e.Kind) == fmt.Sprintf("%T", k) {
		return true
	}
	if _, isType := e.Kind.(*Type); isType {
		return true
	}
	return slices.ContainsFunc(e.Causes, func(c *Error) bool { return hasKind(c, k) })
}

func compileDoc(t testing.TB, schema string) *Compiled {
	t.Helper()
	var c *Compiled
	var err error
	switch doc := decode(t, schema).(type) {
	case map[string]any:
		c, err = Compile(doc)
	case bool:
		c, err = Compile(map[string]any{"$defs": map[string]any{"b": doc}, "$ref": "#/$defs/b"})
	}
	require.NoError(t, err)
	return c
}

func TestMessages(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ schema, value, want string }{
		{`{"type":["string","null","integer"]}`, `true`, "/: got boolean, want null or integer or string"},
		{`{"required":["a","b"]}`, `{}`, "/: missing properties 'a', 'b'"},
		{`{"additionalProperties":false}`, `{"it's":1}`, `/: additional properties 'it\'s' not allowed`},
		{`{"enum":["a",1]}`, `2`, "/: value must be one of 'a', 1"},
		{`{"items":{"minimum":1.5}}`, `[2,1]`, "/1: minimum: got 1, want 1.5"},
		{`{"exclusiveMaximum":1000000}`, `1234567.5`, "/: exclusiveMaximum: got 1.2345675×10⁰⁶, want 1×10⁰⁶"},
		{`{"exclusiveMinimum":0.00001}`, `-1234.5`, "/: exclusiveMinimum: got -1,234.5, want 1×10⁻⁰⁵"},
		{`{"maxLength":1000}`, `"` + strings.Repeat("x", 1234) + `"`, "/: maxLength: got 1,234, want 1,000"},
		{`{"properties":{"a/b":{"type":"string"}}}`, `{"a/b":1}`, "/a~1b: got number, want string"},
	} {
		c := compileDoc(t, tc.schema)
		err := c.Root().Validate(decode(t, tc.value))
		require.Error(t, err)
		assert.Equal(t, tc.want, err.Error())
	}
}

func TestCompileErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ schema, want string }{
		{`{"$ref":"#/$defs/missing"}`, `no "/$defs/missing"`},
		{`{"$ref":"other.json#/x"}`, "only references within the document"},
		{`{"$ref":"#anchor"}`, "anchors are not supported"},
		{`{"pattern":"("}`, "pattern"},
		{`{"unevaluatedProperties":false}`, "unevaluatedProperties: not supported"},
		{`{"$defs":{"A":{"$ref":"#/$defs/B"},"B":{"allOf":[{"$ref":"#/$defs/A"}]}},"$ref":"#/$defs/A"}`, "reference cycle"},
		{`{"properties":{"a":3}}`, "a schema is an object or a boolean"},
	} {
		_, err := Compile(decode(t, tc.schema).(map[string]any))
		require.Error(t, err, tc.schema)
		assert.Contains(t, err.Error(), tc.want)
		var ce *CompileError
		assert.ErrorAs(t, err, &ce)
	}
	// A reference through a property is no cycle.
	_, err := Compile(decode(t, `{"$defs":{"A":{"properties":{"a":{"$ref":"#/$defs/A"}}}},"$ref":"#/$defs/A"}`).(map[string]any))
	require.NoError(t, err)
	// Absolute references to the document's own $id resolve.
	c, err := Compile(decode(t, `{"$id":"https://x.test/s.json","$defs":{"A":{"type":"string"}},"$ref":"https://x.test/s.json#/$defs/A"}`).(map[string]any))
	require.NoError(t, err)
	assert.Error(t, c.Root().Validate(json.Number("1")))
}

func TestLookup(t *testing.T) {
	t.Parallel()
	c := compileDoc(t, `{"$defs":{"A~B":{"required":["x"]}}}`)
	s, err := c.Lookup("/$defs/A~0B")
	require.NoError(t, err)
	err = s.Validate(map[string]any{})
	var e *Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, "/$defs/A~0B", e.SchemaLocation)
	assert.Equal(t, &Required{Missing: []string{"x"}}, e.Kind)
	_, err = c.Lookup("/$defs/none")
	assert.Error(t, err)
}

func TestGoValues(t *testing.T) {
	t.Parallel()
	c := compileDoc(t, `{"type":"object","properties":{"n":{"type":"integer","minimum":1,"maximum":10},"f":{"type":"number","exclusiveMaximum":1}}}`)
	s := c.Root()
	assert.NoError(t, s.Validate(map[string]any{"n": 3, "f": 0.5}))
	assert.NoError(t, s.Validate(map[string]any{"n": int64(10), "f": float32(0.25)}))
	assert.NoError(t, s.Validate(map[string]any{"n": 2.0}))
	assert.Error(t, s.Validate(map[string]any{"n": uint8(11)}))
	assert.Error(t, s.Validate(map[string]any{"n": 2.5}))
	assert.Error(t, s.Validate(map[string]any{"f": 1.0}))
	var e *Error
	require.ErrorAs(t, s.Validate(map[string]any{"n": []string{"not plain"}}), &e)
	assert.IsType(t, &InvalidValue{}, e.Kind)
	require.ErrorAs(t, s.Validate(map[string]any{"f": json.Number("x1")}), &e)
	assert.IsType(t, &InvalidValue{}, e.Kind)
}

func TestValidDoesNotAllocate(t *testing.T) {
	c := compileDoc(t, `{"type":"object","required":["id"],"additionalProperties":false,
		"properties":{"id":{"type":"string","pattern":"^[a-z]+$","minLength":1},"n":{"type":"integer","minimum":0,"maximum":100},
		"tags":{"type":"array","items":{"enum":["a","b"]},"maxItems":3},"d":{"anyOf":[{"type":"number"},{"type":"string"}]}}}`)
	v := decode(t, `{"id":"abc","n":7,"tags":["a","b"],"d":"5s"}`)
	require.NoError(t, c.Root().Validate(v))
	assert.Zero(t, testing.AllocsPerRun(100, func() { _ = c.Root().Validate(v) }))
}

func TestConcurrentUse(t *testing.T) {
	t.Parallel()
	c := compileDoc(t, `{"properties":{"a":{"type":"string"}},"additionalProperties":false}`)
	done := make(chan bool)
	for range 8 {
		go func() {
			for range 200 {
				_ = c.Root().Validate(map[string]any{"a": "x"})
				_ = c.Root().Validate(map[string]any{"a": json.Number("1"), "b": true})
			}
			done <- true
		}()
	}
	for range 8 {
		<-done
	}
}

// compareWithSanthosh validates value with the validator this package
// replaced and requires the same failures: instance location, schema
// location, keyword and message of every leaf.
func compareWithSanthosh(t *testing.T, schema, value string) {
	t.Helper()
	ours := compileDoc(t, schema)
	var sdoc any
	if d := decode(t, schema); d == true || d == false {
		sdoc = map[string]any{"$defs": map[string]any{"b": d}, "$ref": "#/$defs/b"}
	} else {
		sdoc = d
	}
	comp := santhosh.NewCompiler()
	require.NoError(t, comp.AddResource("https://x.test/s.json", sdoc))
	theirs, err := comp.Compile("https://x.test/s.json")
	require.NoError(t, err)
	v := decode(t, value)
	want := santhoshLeaves(theirs.Validate(v))
	got := ourLeaves(ours.Root().Validate(v))
	assert.Equal(t, want, got, "schema %s, value %s", schema, value)
}

// english is how the loader printed that validator's messages.
var english = message.NewPrinter(language.English)

func santhoshLeaves(err error) []string {
	if err == nil {
		return nil
	}
	var out []string
	var walk func(e *santhosh.ValidationError)
	walk = func(e *santhosh.ValidationError) {
		switch e.ErrorKind.(type) {
		case *kind.Schema, *kind.Group, *kind.Reference:
		default:
			_, frag, _ := strings.Cut(e.SchemaURL, "#")
			frag, _ = url.PathUnescape(frag)
			kw := ""
			if _, isNot := e.ErrorKind.(*kind.Not); isNot {
				kw = "not"
			}
			if p := e.ErrorKind.KeywordPath(); len(p) > 0 {
				kw = p[0]
			}
			out = append(out, fmt.Sprintf("%s|%s|%s|%s", pointer(e.InstanceLocation), frag, kw, e.ErrorKind.LocalizedString(english)))
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(err.(*santhosh.ValidationError))
	return normalize(out)
}

func ourLeaves(err error) []string {
	if err == nil {
		return nil
	}
	var out []string
	var walk func(e *Error)
	walk = func(e *Error) {
		switch e.Kind.(type) {
		case *Group, *Reference:
		default:
			out = append(out, fmt.Sprintf("%s|%s|%s|%s", pointer(e.InstanceLocation), e.SchemaLocation, e.Kind.Keyword(), e.Kind))
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(err.(*Error))
	return normalize(out)
}

// normalize sorts leaves and the names inside list messages, whose order
// the other validator takes from map iteration.
func normalize(leaves []string) []string {
	for i, l := range leaves {
		for _, prefix := range []string{"additional properties ", "missing properties "} {
			if j := strings.Index(l, prefix); j >= 0 {
				body := strings.TrimSuffix(l[j+len(prefix):], " not allowed")
				names := strings.Split(body, ", ")
				slices.Sort(names)
				leaves[i] = l[:j+len(prefix)] + strings.Join(names, ", ") + l[j+len(prefix)+len(body):]
			}
		}
	}
	slices.Sort(leaves)
	return leaves
}
