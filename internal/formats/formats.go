// Package formats holds what the scenario loader and its sibling packages
// (matrix, fixture, the job sources, evaluate) know alike about the file
// formats and no host program needs: the id a file's name gives, the keys
// every evaluation has, which fields hold free text, and the rules an
// evaluation type's parameter struct must follow.
package formats

import (
	"fmt"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
)

// IDFromFileName derives a scenario id from a file name:
// dir/test-basic.scenario.yaml gives test-basic.
func IDFromFileName(name string) string {
	base := path.Base(filepath.ToSlash(name))
	for _, suf := range []string{".scenario.yaml", ".scenario.yml", ".scenario.json", ".matrix.yaml", ".matrix.yml", ".matrix.json", ".yaml", ".yml", ".json"} {
		if strings.HasSuffix(strings.ToLower(base), suf) {
			return base[:len(base)-len(suf)]
		}
	}
	return base
}

// evaluationKeys are the JSON names of the fields every evaluation has,
// type first, whatever its type.
var evaluationKeys = []string{"type", "description", "weight", "critical"}

// EvaluationKeys returns the JSON names of the fields every evaluation has
// (type, description, weight, critical), type first; an evaluation type's
// parameters are its other fields.
func EvaluationKeys() []string { return slices.Clone(evaluationKeys) }

// FreeTextTag is the struct tag, agenteval:"freetext", of a string field
// whose content the loader never looks at beyond its type and whether it
// is empty: no enum, pattern, format or semantic check reads it. On a
// map-valued field (virtual_fs) it means the map's values. scenario's
// TestFreeTextFields loads hostile strings into each such field to keep
// the tags honest.
const FreeTextTag = "freetext"

// IsFreeText reports whether the field named jsonName (its JSON name) of
// the struct type owner holds free text (see FreeTextTag): any two
// non-empty strings there (or any two empty ones) load with the same
// diagnostics. A matrix uses it to check one value of such an axis fully
// and accept the others of the same emptiness without loading the scenario
// again.
func IsFreeText(owner reflect.Type, jsonName string) bool {
	for owner.Kind() == reflect.Pointer {
		owner = owner.Elem()
	}
	if owner.Kind() != reflect.Struct {
		return false
	}
	for f := range owner.Fields() {
		if JSONName(f) == jsonName {
			return f.Tag.Get("agenteval") == FreeTextTag
		}
	}
	return false
}

// JSONName is the name encoding/json gives the field.
func JSONName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	if name == "" {
		return f.Name
	}
	return name
}

// CheckParams reports what makes an evaluation type's parameters unusable:
// no newParams, parameters that are not a pointer to a struct, or a field
// that would shadow a field every evaluation has (type, description,
// weight, critical).
func CheckParams(typeName string, newParams func() any) error {
	if newParams == nil {
		return fmt.Errorf("evaluation type %q has no NewParams", typeName)
	}
	p := newParams()
	rt := reflect.TypeOf(p)
	if rt == nil || rt.Kind() != reflect.Pointer || rt.Elem().Kind() != reflect.Struct {
		return fmt.Errorf("evaluation type %q: NewParams must return a pointer to a struct, got %T", typeName, p)
	}
	for f := range rt.Elem().Fields() {
		if name := JSONName(f); slices.Contains(evaluationKeys, name) {
			return fmt.Errorf("evaluation type %q: field %q shadows a field every evaluation has", typeName, name)
		}
	}
	return nil
}
