package scenario

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/invopop/jsonschema"
)

// schemaBaseURL is the base of every generated schema's $id.
const schemaBaseURL = "https://github.com/agenteval/agenteval/schemas/"

// commentsJSON holds the doc comments of this package's types and fields,
// extracted by `go generate` (go/parser needs the source, which a consumer's
// binary does not have).
//
//go:embed schemas/comments.json
var commentsJSON []byte

// schemaFiles holds the generated schemas of the built-in registries, one
// per kind (schemas/<kind>.schema.json), and the fingerprint of the
// vocabulary they describe (schemas/builtin.fingerprint), kept up to date
// by TestSchemaFilesUpToDate.
//
//go:embed schemas/*.schema.json schemas/builtin.fingerprint
var schemaFiles embed.FS

//go:generate go test . -run TestSchemaFilesUpToDate -update

const pkgPath = "github.com/agenteval/agenteval/scenario"

// paramsPath is the package of the built-in evaluation types' parameter
// structs; the schemas name them as if they were this package's.
const paramsPath = "github.com/agenteval/agenteval/internal/evalparams"

// GenerateSchema returns the JSON Schema (draft 2020-12, using only keywords
// that editors' YAML language servers understand) of a document kind. The
// names the formats leave open (evaluation types with their parameters,
// strategies, condition types with the fields each needs, termination and
// environment types) come from reg, with their documentation, so what a
// host program registers appears like a built-in; nil registers nothing.
func GenerateSchema(k Kind, reg Registries) ([]byte, error) {
	var v *Vocabulary
	if reg != nil {
		v = reg.Vocabulary()
	}
	return schemaOf(k, newVocab(v))
}

// builtinFingerprint is the fingerprint of the vocabulary the embedded
// schemas describe.
var builtinFingerprint = func() string {
	b, _ := schemaFiles.ReadFile("schemas/builtin.fingerprint")
	return strings.TrimSpace(string(b))
}()

// schemaOf returns the schema of kind k for v: the embedded file when v is
// the vocabulary it was generated for, else a fresh reflection.
func schemaOf(k Kind, v *vocab) ([]byte, error) {
	if v.fingerprint == builtinFingerprint {
		if b, err := schemaFiles.ReadFile("schemas/" + k.String() + ".schema.json"); err == nil {
			return b, nil
		}
	}
	return generateSchema(k, v, nil)
}

// generateSchema reflects the schema of kind k. comments, when not nil,
// replaces the embedded comment map (the generator passes fresh ones).
func generateSchema(k Kind, v *vocab, comments map[string]string) ([]byte, error) {
	s, err := schemaFor(k, v, comments)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// schemaFor builds the schema; comments overrides the embedded comment map
// (the generator passes freshly extracted ones).
func schemaFor(k Kind, v *vocab, comments map[string]string) (*jsonschema.Schema, error) {
	if comments == nil {
		if err := json.Unmarshal(commentsJSON, &comments); err != nil {
			return nil, fmt.Errorf("scenario: embedded comments: %w", err)
		}
	}
	r := newReflector(comments)
	var s *jsonschema.Schema
	switch k {
	case KindScenario:
		s = r.Reflect(&Scenario{})
		s.Title = "agenteval agent scenario (*.scenario.yaml)"
	case KindGitHub:
		s = r.Reflect(&gitHubScenario{})
		s.Title = "GitHub eval scenario (ghx JSON)"
	case KindMatrix:
		s = r.Reflect(&Matrix{})
		s.Title = "agenteval matrix (*.matrix.yaml)"
	case KindManifest:
		s = r.Reflect(&Manifest{})
		s.Title = "fixture manifest"
	case KindSuite:
		s = r.Reflect(&Suite{})
		s.Title = "agenteval suite (*.suite.yaml)"
	case KindEvalConfig:
		s = r.Reflect(&evalConfig{})
		s.Title = "ghx eval configuration (eval.config.yaml)"
	case KindScenarioSets:
		s = &jsonschema.Schema{Type: "object", Description: "Scenario sets: set name to the ids of the GitHub scenarios in it.",
			AdditionalProperties: &jsonschema.Schema{Type: "array", Items: &jsonschema.Schema{Type: "string", Pattern: `^[a-z0-9]+(?:-[a-z0-9]+)*-\d{3}$`}}}
		s.Version = "https://json-schema.org/draft/2020-12/schema"
		s.Title = "scenario sets (scenario-sets.json)"
	default:
		return nil, fmt.Errorf("scenario: no schema for kind %v", k)
	}
	s.ID = jsonschema.ID(schemaBaseURL + k.String() + ".schema.json")
	if s.Definitions == nil {
		s.Definitions = jsonschema.Definitions{}
	}
	patchDefinitions(s, v)
	if _, ok := s.Definitions["Evaluation"]; ok {
		addEvaluationVariants(r, s, v)
	}
	return s, nil
}

func newReflector(comments map[string]string) *jsonschema.Reflector {
	r := &jsonschema.Reflector{
		ExpandedStruct: true,
		CommentMap:     comments,
		Namer: func(t reflect.Type) string {
			if t.PkgPath() == pkgPath || t.PkgPath() == paramsPath || t.PkgPath() == "" {
				return schemaName(t.Name())
			}
			return strings.NewReplacer("/", ".", "-", "_").Replace(t.PkgPath()) + "." + t.Name()
		},
		Mapper: func(t reflect.Type) *jsonschema.Schema {
			switch t {
			case reflect.TypeFor[Duration]():
				return &jsonschema.Schema{Description: "Milliseconds, or a duration such as \"30s\" or \"1m30s\".",
					AnyOf: []*jsonschema.Schema{{Type: "number", Minimum: "0"}, {Type: "string", Pattern: `^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$`}}}
			case reflect.TypeFor[StringList]():
				return &jsonschema.Schema{AnyOf: []*jsonschema.Schema{{Type: "string"}, {Type: "array", Items: &jsonschema.Schema{Type: "string"}}}}
			}
			return nil
		},
	}
	return r
}

// schemaName is a Go type's name in the schemas: the raw decoding shapes of
// ghx's files are unexported here, but the schemas name them as the formats'
// own types, with a capital (gitHubFixture is GitHubFixture).
func schemaName(goName string) string {
	if goName == "" {
		return ""
	}
	r, n := utf8.DecodeRuneInString(goName)
	return string(unicode.ToUpper(r)) + goName[n:]
}

// patchDefinitions applies what struct tags cannot say: string-or-object
// plugins, free-form keys on characters, and the names the registries
// hold (strategies, termination and environment types, condition types
// with the fields each needs), each documented.
func patchDefinitions(s *jsonschema.Schema, v *vocab) {
	if p, ok := s.Definitions["Plugin"]; ok {
		obj := *p
		obj.Description = ""
		*p = jsonschema.Schema{Description: p.Description, OneOf: []*jsonschema.Schema{
			{Type: "string", MinLength: ptr(uint64(1)), Description: "The plugin's name."}, &obj}}
	}
	for _, name := range []string{"Character", "LLMConfig"} {
		if d, ok := s.Definitions[name]; ok {
			d.AdditionalProperties = nil // further keys are kept as free-form data
		}
	}
	enumOf(s, "Judgment", "strategy", v.Strategies)
	enumOf(s, "TerminationCondition", "type", v.Terminations)
	enumOf(s, "Environment", "type", v.Environments)
	if a, ok := s.Definitions["SuiteAgent"]; ok && len(v.Agents) > 0 {
		if spec, ok := a.Properties.Get("agent"); ok {
			docs := make([]string, len(v.Agents))
			for i, t := range v.Agents {
				docs[i] = t.Name + ": " + t.Doc
			}
			spec.Description += "\n\n" + strings.Join(docs, "\n")
		}
	}
	if c, ok := enumOf(s, "Condition", "type", v.Conditions); ok {
		for _, t := range v.Conditions {
			if len(t.Needs) == 0 {
				continue
			}
			then := &jsonschema.Schema{}
			for _, n := range t.Needs {
				alts := strings.Split(n, "|")
				if len(alts) == 1 {
					then.Required = append(then.Required, n)
					continue
				}
				any := &jsonschema.Schema{}
				for _, a := range alts {
					any.AnyOf = append(any.AnyOf, &jsonschema.Schema{Required: []string{a}})
				}
				then.AllOf = append(then.AllOf, any)
			}
			if val := valueSchema(t.Value); val != nil {
				then.Properties = jsonschema.NewProperties()
				then.Properties.Set("value", val)
			}
			c.AllOf = append(c.AllOf, &jsonschema.Schema{If: typeIs(t.Name), Then: then})
		}
	}
}

// enumOf restricts the property prop of the definition def to the names of
// terms, in their order, and documents each; it returns the definition.
func enumOf(s *jsonschema.Schema, def, prop string, terms []Term) (*jsonschema.Schema, bool) {
	d, ok := s.Definitions[def]
	if !ok {
		return nil, false
	}
	p, ok := d.Properties.Get(prop)
	if !ok {
		return d, true
	}
	p.Enum = make([]any, len(terms))
	var doc strings.Builder
	doc.WriteString(p.Description)
	for i, t := range terms {
		p.Enum[i] = t.Name
		if t.Doc != "" {
			fmt.Fprintf(&doc, "\n- %s: %s", t.Name, strings.Join(strings.Fields(t.Doc), " "))
		}
	}
	p.Description = doc.String()
	return d, true
}

// valueSchema is the schema of a condition's value of JSON type typ.
func valueSchema(typ string) *jsonschema.Schema {
	switch typ {
	case "number":
		return &jsonschema.Schema{Type: "number"}
	case "string":
		return &jsonschema.Schema{Type: "string"}
	case "scalar":
		return &jsonschema.Schema{AnyOf: []*jsonschema.Schema{{Type: "string"}, {Type: "number"}, {Type: "boolean"}, {Type: "null"}}}
	}
	return nil
}

// addEvaluationVariants replaces the Evaluation definition by a union
// selected by `type`: one if/then branch per registered type. if/then (not
// oneOf) keeps a validator's errors on the branch the author meant.
func addEvaluationVariants(r *jsonschema.Reflector, s *jsonschema.Schema, v *vocab) {
	common := s.Definitions["Evaluation"]
	names := v.evaluationNames()
	enum := make([]any, len(names))
	var branches []*jsonschema.Schema
	for i, name := range names {
		enum[i] = name
		t := v.evals[name]
		rt := reflect.TypeOf(t.NewParams()).Elem()
		vs := r.ReflectFromType(rt)
		for k, d := range vs.Definitions {
			if _, clash := s.Definitions[k]; !clash {
				s.Definitions[k] = d
			}
		}
		def := vs
		def.Version, def.ID, def.Definitions = "", "", nil
		if def.Properties == nil {
			def.Properties = jsonschema.NewProperties()
		}
		def.Type = "object"
		def.Description = t.Doc
		def.Title = name
		props := jsonschema.NewProperties()
		props.Set("type", &jsonschema.Schema{Const: name, Description: "Evaluation type."})
		for _, k := range commonEvaluationKeys[1:] {
			if p, ok := common.Properties.Get(k); ok {
				props.Set(k, p)
			}
		}
		for pair := def.Properties.Oldest(); pair != nil; pair = pair.Next() {
			props.Set(pair.Key, pair.Value)
		}
		def.Properties = props
		def.Required = append([]string{"type"}, def.Required...)
		defName := "Evaluation_" + name
		s.Definitions[defName] = def
		branches = append(branches, &jsonschema.Schema{If: typeIs(name), Then: &jsonschema.Schema{Ref: "#/$defs/" + defName}})
	}
	typeProp := &jsonschema.Schema{Type: "string", Enum: enum, Description: "Evaluation type."}
	props := jsonschema.NewProperties()
	props.Set("type", typeProp)
	s.Definitions["Evaluation"] = &jsonschema.Schema{
		Type:        "object",
		Description: "One check. `type` selects the evaluation type; the other fields are that type's.",
		Required:    []string{"type"},
		Properties:  props,
		AllOf:       branches,
	}
}

func typeIs(name string) *jsonschema.Schema {
	p := jsonschema.NewProperties()
	p.Set("type", &jsonschema.Schema{Const: name})
	return &jsonschema.Schema{Properties: p, Required: []string{"type"}}
}

func ptr[T any](v T) *T { return &v }

// SchemaKinds lists the kinds that have a schema, in CLI order.
func SchemaKinds() []Kind {
	return []Kind{KindScenario, KindGitHub, KindMatrix, KindManifest, KindScenarioSets, KindSuite, KindEvalConfig}
}

// schemaProperties returns the property names a schema location allows;
// used to suggest the field a misspelt key meant.
func schemaProperties(doc map[string]any, fragment string) []string {
	var cur any = doc
	for _, tok := range strings.Split(strings.TrimPrefix(fragment, "/"), "/") {
		if tok == "" {
			continue
		}
		tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
		switch v := cur.(type) {
		case map[string]any:
			cur = v[tok]
		case []any:
			i, ok := atoi(tok)
			if !ok || i >= len(v) {
				return nil
			}
			cur = v[i]
		default:
			return nil
		}
	}
	m, _ := cur.(map[string]any)
	props, _ := m["properties"].(map[string]any)
	out := make([]string, 0, len(props))
	for k := range props {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
