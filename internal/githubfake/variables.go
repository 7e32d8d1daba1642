package githubfake

import (
	"fmt"
	"math"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
)

// checkVariables applies the parts of GraphQL input coercion where
// gqlparser is more lenient than GitHub: it accepts "42" for an Int and
// matches enum values case-insensitively, both of which GitHub refuses. It
// runs after validator.VariableValues, so shapes and required values are
// already checked.
func checkVariables(schema *ast.Schema, op *ast.OperationDefinition, vars map[string]any) error {
	for _, def := range op.VariableDefinitions {
		v, ok := vars[def.Variable]
		if !ok {
			continue
		}
		if err := checkValue(schema, def.Type, v, "$"+def.Variable); err != nil {
			return err
		}
	}
	return nil
}

func checkValue(schema *ast.Schema, typ *ast.Type, v any, at string) error {
	if v == nil {
		return nil
	}
	if typ.Elem != nil {
		list, ok := v.([]any)
		if !ok {
			// A single value stands for a one-element list.
			return checkValue(schema, typ.Elem, v, at)
		}
		for i, item := range list {
			if err := checkValue(schema, typ.Elem, item, fmt.Sprintf("%s[%d]", at, i)); err != nil {
				return err
			}
		}
		return nil
	}
	def := schema.Types[typ.NamedType]
	if def == nil {
		return nil
	}
	switch def.Kind {
	case ast.Enum:
		s, _ := v.(string)
		for _, ev := range def.EnumValues {
			if ev.Name == s {
				return nil
			}
		}
		return fmt.Errorf("Variable %s of type %s was provided invalid value %q: expected one of %s", at, def.Name, s, enumNames(def))
	case ast.Scalar:
		switch def.Name {
		case "Int":
			if f, ok := v.(float64); !ok || f != math.Trunc(f) || f > math.MaxInt32 || f < math.MinInt32 {
				return fmt.Errorf("Variable %s of type Int was provided invalid value %v: could not coerce to a 32-bit integer", at, v)
			}
		case "Float":
			if _, ok := v.(float64); !ok {
				return fmt.Errorf("Variable %s of type Float was provided invalid value %v", at, v)
			}
		}
	case ast.InputObject:
		obj, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		for _, f := range def.Fields {
			if fv, ok := obj[f.Name]; ok {
				if err := checkValue(schema, f.Type, fv, at+"."+f.Name); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func enumNames(def *ast.Definition) string {
	names := make([]string, len(def.EnumValues))
	for i, ev := range def.EnumValues {
		names[i] = ev.Name
	}
	return strings.Join(names, ", ")
}
