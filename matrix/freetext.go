package matrix

import (
	"reflect"

	"github.com/agenteval/agenteval/internal/formats"
)

// freeTextSlot reports whether an axis varies a free-text string field
// (tagged agenteval:"freetext", formats.FreeTextTag): a prompt, a description, a file's content. Every
// string of the same emptiness loads the same way there, so Compile checks
// one value of each emptiness in full and takes the others as they are,
// which keeps a sweep over thousands of prompts cheap to compile.
func freeTextSlot(root reflect.Value, steps []step) bool {
	n := len(steps)
	if n == 0 {
		return false
	}
	last := steps[n-1]
	ownerSteps, fieldStep := steps[:n-1], last
	if last.kind == stepKey {
		if n < 2 || steps[n-2].kind != stepField {
			return false
		}
		ownerSteps, fieldStep = steps[:n-2], steps[n-2]
	}
	if fieldStep.kind != stepField {
		return false
	}
	owner := get(root, ownerSteps)
	for owner.Kind() == reflect.Pointer || owner.Kind() == reflect.Interface {
		if owner.IsNil() {
			return false
		}
		owner = owner.Elem()
	}
	if owner.Kind() != reflect.Struct {
		return false
	}
	f := owner.Type().Field(fieldStep.field)
	leaf := get(root, steps)
	if leaf.Kind() != reflect.String || leaf.Type() != reflect.TypeFor[string]() {
		return false // a named string type may parse its text
	}
	return f.Tag.Get("agenteval") == formats.FreeTextTag // the field in hand: no search by name
}
