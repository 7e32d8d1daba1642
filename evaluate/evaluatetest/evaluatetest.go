// Package evaluatetest checks that a host's evaluation kind obeys the
// contract package evaluate and the runner rely on, in the manner of
// testing/slogtest: a host writes a few cases for its kind and calls [Run]
// from a test, or [Check] anywhere else.
//
// The contract:
//   - the kind has a name and documentation, NewParams returns a new
//     pointer to a struct on every call, and the kind registers next to
//     the built-ins and appears in the generated JSON Schema;
//   - New rejects malformed parameters with an error (and no evaluator),
//     and accepts well-formed ones with an evaluator;
//   - Evaluate does not panic, on the cases and on every standard shape of
//     step (an empty input step, a code step, a conversation at its end
//     and at a turn); it returns a Score in [0, 1] and a Message; it does
//     not change the trace; and it gives the same Result when called
//     again or from several goroutines at once (run tests with -race);
//   - Evaluate returns promptly when its context is already cancelled.
package evaluatetest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/agenteval/agenteval/evaluate"
	"github.com/agenteval/agenteval/registry"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/scenario"
)

// Case is one use of the kind under test.
type Case struct {
	// Name labels the case in failures.
	Name string
	// Params are the parameters, a value of the kind's NewParams filled in.
	Params any
	// Malformed says New must reject Params.
	Malformed bool
	// Input is what the evaluator judges; a zero Input means a standard
	// one (an input step with a reply and an action).
	Input evaluate.Input
	// Pass is the expected Passed of the Result.
	Pass bool
}

// Run runs [Check] and reports each violation as a test error.
func Run(t *testing.T, k *evaluate.Kind, cases []Case) {
	t.Helper()
	if err := Check(k, cases); err != nil {
		for _, e := range unjoin(err) {
			t.Error(e)
		}
	}
}

func unjoin(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

// Check returns every violation of the contract by k and cases, joined,
// or nil.
func Check(k *evaluate.Kind, cases []Case) error {
	var errs []error
	fail := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if k == nil {
		return errors.New("evaluatetest: kind is nil")
	}
	checkKind(k, fail)
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	wellFormed := 0
	for _, c := range cases {
		ev, err := newEvaluator(k, c.Params)
		switch {
		case c.Malformed && err == nil:
			fail("case %s: New accepted malformed parameters %+v", c.Name, c.Params)
			continue
		case c.Malformed:
			continue
		case err != nil:
			fail("case %s: New: %v", c.Name, err)
			continue
		case ev == nil:
			fail("case %s: New returned neither an evaluator nor an error", c.Name)
			continue
		}
		wellFormed++
		in := c.Input
		if in.Trace == nil {
			in = standardInputs()[0].in
		}
		before, _ := json.Marshal(in.Trace)
		r, err := evaluate1(context.Background(), ev, in)
		if err != nil {
			fail("case %s: Evaluate: %v", c.Name, err)
			continue
		}
		checkResult(c.Name, r, fail)
		if r.Passed != c.Pass {
			fail("case %s: Passed = %v, want %v (message %q)", c.Name, r.Passed, c.Pass, r.Message)
		}
		if after, _ := json.Marshal(in.Trace); string(after) != string(before) {
			// Calling it concurrently now would be a data race in the
			// evaluator, already reported here.
			fail("case %s: Evaluate changed the trace", c.Name)
		} else {
			checkStable(c.Name, ev, in, r, fail)
		}
		for _, s := range standardInputs() {
			r, err := evaluate1(context.Background(), ev, s.in)
			var pe *panicError
			switch {
			case errors.As(err, &pe):
				fail("case %s on %s: %v", c.Name, s.name, err)
			case err == nil:
				checkResult(c.Name+" on "+s.name, r, fail)
			}
		}
		checkCancel(c.Name, ev, in, fail)
	}
	if wellFormed == 0 {
		fail("no well-formed case: give at least one case that New accepts")
	}
	return errors.Join(errs...)
}

// checkKind checks the kind's description and registration.
func checkKind(k *evaluate.Kind, fail func(string, ...any)) {
	if k.Name == "" || k.Doc == "" || k.NewParams == nil || k.New == nil {
		fail("kind %q: Name, Doc, NewParams and New must all be set", k.Name)
		return
	}
	a, b := k.NewParams(), k.NewParams()
	rt := reflect.TypeOf(a)
	if rt == nil || rt.Kind() != reflect.Pointer || rt.Elem().Kind() != reflect.Struct {
		fail("kind %q: NewParams returns %T, want a pointer to a struct", k.Name, a)
		return
	}
	if reflect.ValueOf(a).Pointer() == reflect.ValueOf(b).Pointer() && rt.Elem().Size() > 0 {
		fail("kind %q: NewParams returns the same pointer twice; each evaluation needs its own struct", k.Name)
	}
	reg := evaluate.NewRegistry()
	if err := reg.Register(k); err != nil {
		fail("kind %q does not register next to the built-ins: %v", k.Name, err)
		return
	}
	schema, err := scenario.GenerateSchema(scenario.KindScenario, evaluations{reg})
	if err != nil {
		fail("kind %q: schema generation fails: %v", k.Name, err)
		return
	}
	if !json.Valid(schema) || !containsQuoted(schema, k.Name) {
		fail("kind %q does not appear in the generated schema", k.Name)
	}
}

func containsQuoted(b []byte, name string) bool {
	q, _ := json.Marshal(name)
	return bytes.Contains(b, q)
}

// newEvaluator calls New, turning a panic into an error.
func newEvaluator(k *evaluate.Kind, params any) (ev evaluate.Evaluator, err error) {
	defer func() {
		if v := recover(); v != nil {
			ev, err = nil, fmt.Errorf("the kind's New panicked: %v", v)
		}
	}()
	return k.New(params)
}

type panicError struct{ v any }

// Error says that Evaluate panicked and with what.
func (p *panicError) Error() string { return fmt.Sprintf("Evaluate panicked: %v", p.v) }

// evaluate1 calls Evaluate, turning a panic into a *panicError.
func evaluate1(ctx context.Context, ev evaluate.Evaluator, in evaluate.Input) (r results.Evaluation, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = &panicError{v}
		}
	}()
	return ev.Evaluate(ctx, in)
}

func checkResult(name string, r results.Evaluation, fail func(string, ...any)) {
	if math.IsNaN(r.Score) || r.Score < 0 || r.Score > 1 {
		fail("case %s: Score %v is outside [0, 1]", name, r.Score)
	}
	if r.Message == "" {
		fail("case %s: Message is empty; say what passed or failed", name)
	}
}

// checkStable evaluates again from several goroutines at once and compares
// the Results with the first.
func checkStable(name string, ev evaluate.Evaluator, in evaluate.Input, first results.Evaluation, fail func(string, ...any)) {
	const n = 4
	results := make([]results.Evaluation, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { results[i], errs[i] = evaluate1(context.Background(), ev, in) })
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil {
			fail("case %s: Evaluate again: %v", name, errs[i])
			return
		}
		if !reflect.DeepEqual(normalise(results[i]), normalise(first)) {
			fail("case %s: Evaluate gives a different Result when called again: %+v, then %+v", name, first, results[i])
			return
		}
	}
}

// normalise drops what legitimately varies between calls: measured times.
func normalise(r results.Evaluation) results.Evaluation {
	b, _ := json.Marshal(r)
	var out results.Evaluation
	_ = json.Unmarshal(b, &out)
	delete(out.Details, "duration_ms")
	return out
}

// checkCancel checks that Evaluate returns promptly on a cancelled context.
func checkCancel(name string, ev evaluate.Evaluator, in evaluate.Input, fail func(string, ...any)) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = evaluate1(ctx, ev, in)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		fail("case %s: Evaluate did not return within 5s of a cancelled context", name)
	}
}

// evaluations shows the loader and the schema what an evaluation registry
// holds, and nothing else.
type evaluations struct {
	r *registry.Registry[*evaluate.Kind]
}

func (e evaluations) Version() uint64 { return e.r.Version() }

func (e evaluations) Vocabulary() *scenario.Vocabulary {
	v := &scenario.Vocabulary{}
	for _, k := range e.r.All() {
		v.Evaluations = append(v.Evaluations, scenario.EvaluationType{Name: k.Name, Doc: k.Doc, NewParams: k.NewParams, Conversation: k.Conversation})
	}
	return v
}
