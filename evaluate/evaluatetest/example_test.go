package evaluatetest_test

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/agenteval/agenteval/evaluate"
	"github.com/agenteval/agenteval/evaluate/evaluatetest"
	"github.com/agenteval/agenteval/results"
)

// Politeness is a host's parameter struct.
type Politeness struct {
	Words []string `json:"words" jsonschema:"minItems=1"`
}

// A host checks its own kind against the contract; in a test it would call
// evaluatetest.Run(t, kind, cases) instead.
func ExampleCheck() {
	kind := evaluate.NewKind("polite", "The reply contains one of the polite words.", func(p *Politeness) (evaluate.Evaluator, error) {
		if len(p.Words) == 0 {
			return nil, errors.New("words is empty")
		}
		return evaluate.EvaluatorFunc(func(_ context.Context, in evaluate.Input) (results.Evaluation, error) {
			what, text := in.Text()
			for _, w := range p.Words {
				if strings.Contains(strings.ToLower(text), w) {
					return results.Evaluation{Passed: true, Score: 1, Message: fmt.Sprintf("%s says %q", what, w)}, nil
				}
			}
			return results.Evaluation{Message: fmt.Sprintf("%s has none of %v", what, p.Words)}, nil
		}), nil
	})
	err := evaluatetest.Check(kind, []evaluatetest.Case{
		{Name: "polite", Params: &Politeness{Words: []string{"issues"}}, Pass: true},
		{Name: "rude", Params: &Politeness{Words: []string{"please"}}},
		{Name: "no words", Params: &Politeness{}, Malformed: true},
	})
	fmt.Println("violations:", err)
	// Output:
	// violations: <nil>
}
