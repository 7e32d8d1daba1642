package evaluate

import (
	"fmt"
	"reflect"
)

// Kind describes one evaluation type, in the manner of
// golang.org/x/tools/go/analysis.Analyzer: everything the loader, the schema
// generator and the runner need to know about the type in one value.
type Kind struct {
	// Name is the value of `type:` in scenario files.
	Name string
	// Doc is a one-line summary followed by details; it becomes the
	// description of the type in the generated JSON Schema.
	Doc string
	// NewParams returns a pointer to a new, zero parameter struct. Its json
	// and jsonschema tags define the fields a file may give.
	NewParams func() any
	// New validates params (a value NewParams returned, decoded and
	// defaulted) and returns the evaluator. It runs once per scenario, so it
	// is the place to compile patterns and reject malformed parameters.
	New func(params any) (Evaluator, error)
	// Conversation marks a kind that judges a conversation: a file may use
	// it only in a step that has one.
	Conversation bool
}

// NewKind returns a Kind whose parameters are a *P. It spares a host the
// type assertion that New would otherwise need, and it is how the built-ins
// are declared.
func NewKind[P any](name, doc string, build func(p *P) (Evaluator, error)) *Kind {
	return &Kind{
		Name:      name,
		Doc:       doc,
		NewParams: func() any { return new(P) },
		New: func(params any) (Evaluator, error) {
			p, ok := params.(*P)
			if !ok || p == nil {
				return nil, fmt.Errorf("%s: parameters are %T, want %v", name, params, reflect.TypeFor[*P]())
			}
			return build(p)
		},
	}
}

// conversational marks k as judging a conversation.
func conversational(k *Kind) *Kind {
	k.Conversation = true
	return k
}
