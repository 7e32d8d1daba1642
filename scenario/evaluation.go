package scenario

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/agenteval/agenteval/internal/formats"
)

// Evaluation is one check in a step, a conversation turn or a conversation's
// end. Type selects the evaluation type; Params holds that type's own fields,
// decoded into the parameter struct its [EvaluationType] registers (a
// built-in's is internal to this module; read or write it as data with
// MarshalJSON and the loader's DecodeEvaluation).
type Evaluation struct {
	// Type names the evaluation type.
	Type string `json:"type"`
	// Description says what the check means to a reader.
	Description string `json:"description,omitempty" agenteval:"freetext"`
	// Weight counts the evaluation under the weighted strategy (default 1).
	Weight *float64 `json:"weight,omitempty" jsonschema:"minimum=0"`
	// Critical fails the verdict whenever this evaluation fails, whatever the strategy.
	Critical bool `json:"critical,omitempty"`
	// Params holds the type's parameters, a pointer to its registered struct.
	Params any `json:"-"`
	// raw keeps the type's own fields until the loader decodes them for their type.
	raw json.RawMessage
	// value is raw as plain data, when the loader decoded the evaluation from a Document.
	value map[string]any
}

// commonEvaluationKeys are the fields every evaluation type shares.
var commonEvaluationKeys = formats.EvaluationKeys()

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

// decodeParams decodes the evaluation's own fields into t's parameters.
func (e *Evaluation) decodeParams(t *EvaluationType) error {
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
