package scenario

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/invopop/jsonschema"
)

// SchemaBaseURL is the base of every generated schema's $id.
const SchemaBaseURL = "https://github.com/agenteval/agenteval/schemas/"

// commentsJSON holds the doc comments of this package's types and fields,
// extracted by `go generate` (go/parser needs the source, which a consumer's
// binary does not have).
//
//go:embed schemas/comments.json
var commentsJSON []byte

// schemaFiles holds the generated schemas of the built-in registry, one per
// kind (schemas/<kind>.schema.json), kept up to date by TestSchemaFilesUpToDate.
//
//go:embed schemas/*.schema.json
var schemaFiles embed.FS

//go:generate go test . -run TestSchemaFilesUpToDate -update

const pkgPath = "github.com/agenteval/agenteval/scenario"

// GenerateSchema returns the JSON Schema (draft 2020-12, using only keywords
// that editors' YAML language servers understand) of a document kind. The
// evaluation variants come from reg, so a type registered by a host program
// appears like a built-in; nil means [DefaultRegistry].
func GenerateSchema(k Kind, reg *Registry) ([]byte, error) {
	if reg == nil || reg.builtin {
		if b, err := schemaFiles.ReadFile("schemas/" + k.String() + ".schema.json"); err == nil {
			return b, nil
		}
	}
	return generateSchema(k, reg, nil)
}

// generateSchema reflects the schema of kind k. comments, when not nil,
// replaces the embedded comment map (the generator passes fresh ones).
func generateSchema(k Kind, reg *Registry, comments map[string]string) ([]byte, error) {
	s, err := schemaFor(k, reg, comments)
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
func schemaFor(k Kind, reg *Registry, comments map[string]string) (*jsonschema.Schema, error) {
	if reg == nil {
		reg = DefaultRegistry()
	}
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
		s = r.Reflect(&GitHubScenario{})
		s.Title = "GitHub eval scenario (ghx JSON)"
	case KindMatrix:
		s = r.Reflect(&Matrix{})
		s.Title = "agenteval matrix (*.matrix.yaml)"
	case KindManifest:
		s = r.Reflect(&Manifest{})
		s.Title = "fixture manifest"
	case KindScenarioSets:
		s = &jsonschema.Schema{Type: "object", Description: "Scenario sets: set name to the ids of the GitHub scenarios in it.",
			AdditionalProperties: &jsonschema.Schema{Type: "array", Items: &jsonschema.Schema{Type: "string", Pattern: `^[a-z0-9]+(?:-[a-z0-9]+)*-\d{3}$`}}}
		s.Version = "https://json-schema.org/draft/2020-12/schema"
		s.Title = "scenario sets (scenario-sets.json)"
	default:
		return nil, fmt.Errorf("scenario: no schema for kind %v", k)
	}
	s.ID = jsonschema.ID(SchemaBaseURL + k.String() + ".schema.json")
	if s.Definitions == nil {
		s.Definitions = jsonschema.Definitions{}
	}
	patchDefinitions(s)
	if _, ok := s.Definitions["Evaluation"]; ok {
		if err := addEvaluationVariants(r, s, reg); err != nil {
			return nil, err
		}
	}
	return s, nil
}

func newReflector(comments map[string]string) *jsonschema.Reflector {
	r := &jsonschema.Reflector{
		ExpandedStruct: true,
		CommentMap:     comments,
		Namer: func(t reflect.Type) string {
			if t.PkgPath() == pkgPath || t.PkgPath() == "" {
				return t.Name()
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

// patchDefinitions applies what struct tags cannot say: string-or-object
// plugins, free-form keys on characters, per-type condition fields.
func patchDefinitions(s *jsonschema.Schema) {
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
	if c, ok := s.Definitions["Condition"]; ok {
		num := &jsonschema.Schema{Type: "number"}
		scalar := &jsonschema.Schema{AnyOf: []*jsonschema.Schema{{Type: "string"}, {Type: "number"}, {Type: "boolean"}, {Type: "null"}}}
		str := &jsonschema.Schema{Type: "string"}
		needs := []struct {
			typ      string
			required []string
			props    map[string]*jsonschema.Schema
		}{
			{"count_gte", []string{"value"}, map[string]*jsonschema.Schema{"value": num}},
			{"count_eq", []string{"value"}, map[string]*jsonschema.Schema{"value": num}},
			{"field_equals", []string{"path", "value"}, map[string]*jsonschema.Schema{"value": scalar}},
			{"field_contains", []string{"path", "value"}, map[string]*jsonschema.Schema{"value": str}},
			{"field_gte", []string{"path", "value"}, map[string]*jsonschema.Schema{"value": num}},
			{"custom", []string{"scorer"}, nil},
		}
		for _, n := range needs {
			then := &jsonschema.Schema{Required: n.required}
			if n.props != nil {
				then.Properties = jsonschema.NewProperties()
				for k, v := range n.props {
					then.Properties.Set(k, v)
				}
			}
			c.AllOf = append(c.AllOf, &jsonschema.Schema{If: typeIs(n.typ), Then: then})
		}
	}
}

// addEvaluationVariants replaces the Evaluation definition by a union
// selected by `type`: one if/then branch per registered type. if/then (not
// oneOf) keeps a validator's errors on the branch the author meant.
func addEvaluationVariants(r *jsonschema.Reflector, s *jsonschema.Schema, reg *Registry) error {
	common := s.Definitions["Evaluation"]
	names := reg.Names()
	enum := make([]any, len(names))
	var branches []*jsonschema.Schema
	for i, name := range names {
		enum[i] = name
		t := reg.Lookup(name)
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
	return nil
}

func typeIs(name string) *jsonschema.Schema {
	p := jsonschema.NewProperties()
	p.Set("type", &jsonschema.Schema{Const: name})
	return &jsonschema.Schema{Properties: p, Required: []string{"type"}}
}

func ptr[T any](v T) *T { return &v }

// SchemaKinds lists the kinds that have a schema, in CLI order.
func SchemaKinds() []Kind {
	return []Kind{KindScenario, KindGitHub, KindMatrix, KindManifest, KindScenarioSets}
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
