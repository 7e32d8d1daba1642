package scenario

import (
	"reflect"
	"slices"

	"github.com/agenteval/agenteval/internal/evalparams"
)

// freeText lists, per struct type, the JSON names of string fields whose
// content the loader never looks at beyond its type and whether it is empty:
// no enum, pattern, format or semantic check reads them. Map-valued fields
// listed here (virtual_fs) mean their values. TestFreeTextFields loads
// hostile strings into each to keep this list honest.
func freeText() map[reflect.Type][]string {
	return map[reflect.Type][]string{
		reflect.TypeFor[Scenario]():                  {"name", "description"},
		reflect.TypeFor[RunStep]():                   {"name", "input"},
		reflect.TypeFor[UserSimulator]():             {"persona", "objective", "style", "emotional_state"},
		reflect.TypeFor[TerminationCondition]():      {"description"},
		reflect.TypeFor[TerminationJudge]():          {"prompt"},
		reflect.TypeFor[Character]():                 {"name", "system"},
		reflect.TypeFor[LLMConfig]():                 {"model"},
		reflect.TypeFor[Mock]():                      {"responseFn"},
		reflect.TypeFor[MockError]():                 {"message"},
		reflect.TypeFor[Setup]():                     {"virtual_fs"},
		reflect.TypeFor[Evaluation]():                {"description"},
		reflect.TypeFor[evalparams.StringContains](): {"value"},
		reflect.TypeFor[evalparams.FileContains]():   {"value"},
		reflect.TypeFor[evalparams.LLMJudge]():       {"prompt"},
		reflect.TypeFor[Checkpoint]():                {"description"},
	}
}

// IsFreeText reports whether the field named jsonName (its JSON name) of
// the struct type owner holds free text: any two non-empty strings there
// (or any two empty ones) load with the same diagnostics. A matrix uses it
// to check one value of such an axis fully and accept the others of the
// same emptiness without loading the scenario again.
func IsFreeText(owner reflect.Type, jsonName string) bool {
	for owner.Kind() == reflect.Pointer {
		owner = owner.Elem()
	}
	return slices.Contains(freeText()[owner], jsonName)
}
