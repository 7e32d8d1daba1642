package scenario

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
)

// Evaluation is one check in a step, a conversation turn or a conversation's
// end. Type selects the evaluation type; Params holds that type's own fields,
// decoded into the parameter struct its [EvaluationType] registers (for
// string_contains, a *StringContains).
type Evaluation struct {
	// Type names the evaluation type.
	Type string `json:"type"`
	// Description says what the check means to a reader.
	Description string `json:"description,omitempty"`
	// Weight counts the evaluation under the weighted strategy (default 1).
	Weight *float64 `json:"weight,omitempty" jsonschema:"minimum=0"`
	// Critical fails the verdict whenever this evaluation fails, whatever the strategy.
	Critical bool `json:"critical,omitempty"`
	// Params holds the type's parameters, a pointer to its registered struct.
	Params any `json:"-"`
	// raw keeps the type's own fields until the loader decodes them with its registry.
	raw json.RawMessage
	// value is raw as plain data, when the loader decoded the evaluation from a Document.
	value map[string]any
}

// commonEvaluationKeys are the fields every evaluation type shares.
var commonEvaluationKeys = []string{"type", "description", "weight", "critical"}

// EvaluationCommonKeys returns the JSON names of the fields every evaluation
// has whatever its type (type, description, weight, critical); a type's own
// parameters may not use them.
func EvaluationCommonKeys() []string { return slices.Clone(commonEvaluationKeys) }

// UnmarshalJSON reads the shared fields and keeps the rest for the registry.
func (e *Evaluation) UnmarshalJSON(b []byte) error {
	type common struct {
		Type        string   `json:"type"`
		Description string   `json:"description,omitempty"`
		Weight      *float64 `json:"weight,omitempty"`
		Critical    bool     `json:"critical,omitempty"`
	}
	var c common
	if err := json.Unmarshal(b, &c); err != nil {
		return err
	}
	*e = Evaluation{Type: c.Type, Description: c.Description, Weight: c.Weight, Critical: c.Critical, raw: slices.Clone(b)}
	return nil
}

// MarshalJSON writes the shared fields and the parameters as one object.
func (e Evaluation) MarshalJSON() ([]byte, error) {
	m := map[string]any{}
	if e.Params != nil {
		b, err := json.Marshal(e.Params)
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(b, &m); err != nil {
			return nil, err
		}
	} else if e.value != nil {
		m = jsonNumbers(e.value).(map[string]any)
	} else if len(e.raw) > 0 {
		if err := json.Unmarshal(e.raw, &m); err != nil {
			return nil, err
		}
	}
	m["type"] = e.Type
	if e.Description != "" {
		m["description"] = e.Description
	} else {
		delete(m, "description")
	}
	if e.Weight != nil {
		m["weight"] = *e.Weight
	} else {
		delete(m, "weight")
	}
	if e.Critical {
		m["critical"] = true
	} else {
		delete(m, "critical")
	}
	return json.Marshal(m)
}

// WeightOr returns the evaluation's weight, or def when none is given.
func (e Evaluation) WeightOr(def float64) float64 {
	if e.Weight == nil {
		return def
	}
	return *e.Weight
}

// decodeParams decodes the evaluation's own fields with the registry.
func (e *Evaluation) decodeParams(reg *Registry) error {
	t := reg.Lookup(e.Type)
	if t == nil {
		return fmt.Errorf("unknown evaluation type %q", e.Type)
	}
	p := t.NewParams()
	if e.value != nil {
		if err := decodeValue(e.value, p); err != nil {
			return fmt.Errorf("evaluation %q: %w", e.Type, err)
		}
	} else if len(e.raw) > 0 {
		d := json.NewDecoder(bytes.NewReader(e.raw))
		if err := d.Decode(p); err != nil {
			return fmt.Errorf("evaluation %q: %w", e.Type, err)
		}
	}
	if d, ok := p.(interface{ SetDefaults() }); ok {
		d.SetDefaults()
	}
	e.Params = p
	return nil
}

// EvaluationType describes one evaluation type: its name in files, its
// documentation and its parameter struct. The struct's json tags and
// jsonschema tags define the fields the type accepts, both for the loader and
// for the generated JSON Schema, so a type registered by a host program is
// loaded, validated and offered to editors exactly like a built-in.
type EvaluationType struct {
	// Name is the value of `type:` in files.
	Name string
	// Doc is the first-line summary, then details, shown in the schema and in docs.
	Doc string
	// NewParams returns a pointer to a new, zero parameter struct.
	NewParams func() any
}

// Registry is a set of evaluation types. Build one with [NewRegistry]; the
// zero value is empty.
type Registry struct {
	types map[string]*EvaluationType
	// builtin marks a registry of exactly the built-in types, whose schemas
	// are embedded pre-generated.
	builtin bool
}

// NewRegistry returns a registry of the given types. Names must be unique,
// non-empty and not shadow a shared field.
func NewRegistry(types ...*EvaluationType) (*Registry, error) {
	r := &Registry{types: make(map[string]*EvaluationType, len(types))}
	for _, t := range types {
		if err := r.add(t); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// With returns a new registry holding r's types and the given ones.
func (r *Registry) With(types ...*EvaluationType) (*Registry, error) {
	n := &Registry{types: maps.Clone(r.types)}
	if n.types == nil {
		n.types = map[string]*EvaluationType{}
	}
	for _, t := range types {
		if err := n.add(t); err != nil {
			return nil, err
		}
	}
	return n, nil
}

func (r *Registry) add(t *EvaluationType) error {
	switch {
	case t == nil || t.Name == "":
		return fmt.Errorf("scenario: evaluation type without a name")
	case t.NewParams == nil:
		return fmt.Errorf("scenario: evaluation type %q has no NewParams", t.Name)
	case r.types[t.Name] != nil:
		return fmt.Errorf("scenario: evaluation type %q registered twice", t.Name)
	}
	p := t.NewParams()
	rt := reflect.TypeOf(p)
	if rt == nil || rt.Kind() != reflect.Pointer || rt.Elem().Kind() != reflect.Struct {
		return fmt.Errorf("scenario: evaluation type %q: NewParams must return a pointer to a struct, got %T", t.Name, p)
	}
	for f := range rt.Elem().Fields() {
		name := jsonName(f)
		if slices.Contains(commonEvaluationKeys, name) {
			return fmt.Errorf("scenario: evaluation type %q: field %q shadows a field every evaluation has", t.Name, name)
		}
	}
	r.types[t.Name] = t
	return nil
}

// Lookup returns the type named name, or nil.
func (r *Registry) Lookup(name string) *EvaluationType {
	if r == nil {
		return nil
	}
	return r.types[name]
}

// Names returns the registered type names in sorted order.
func (r *Registry) Names() []string {
	if r == nil {
		return nil
	}
	return slices.Sorted(maps.Keys(r.types))
}

// jsonName is the json key of a struct field.
func jsonName(f reflect.StructField) string {
	tag := f.Tag.Get("json")
	name, _, _ := bytes.Cut([]byte(tag), []byte(","))
	if len(name) == 0 {
		return f.Name
	}
	return string(name)
}
