// Package mockset answers an agent's calls to mocked services from a
// scenario's setup.mocks, for one attempt of a job: matching (service,
// method, when: args, partial args, context, one matcher expression),
// seeded probabilities (recorded on a cassette and replayed), delays, error
// mocks (*scenario.MockError) and responseFn templates; every call is
// recorded for the job's record.
package mockset

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agenteval/agenteval/internal/jsonvalue"
	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/scenario"
)

// ErrNoMock is wrapped by Set.Call's error when no mock matches the call
// (runner.ErrNoMock is this error).
var ErrNoMock = errors.New("no mock matches the call")

// Set answers an agent's service calls from a scenario's setup.mocks. The
// first mock in file order whose service, method and `when` conditions match
// answers; `metadata.probability` is the chance a matching mock applies,
// drawn from the run's seeded source, and a mock that does not apply lets the
// next one try. Safe for concurrent use.
type Set struct {
	mocks []scenario.Mock
	seed  int64
	mu    sync.Mutex
	rng   *rand.Rand // made at the first draw: most runs never draw
	calls []results.MockCall
	// tape, when set, records each draw (or, replaying, gives the
	// recorded one), so that a replay takes the branches the recording took.
	tape *llm.Cassette
}

// New returns the mock engine of one attempt: mocks answer in file order,
// probabilities drawn from seed; tape, when not nil, records each draw
// (or, replaying, gives the recorded one).
func New(mocks []scenario.Mock, seed int64, tape *llm.Cassette) *Set {
	return &Set{mocks: mocks, seed: seed, tape: tape}
}

// Calls returns the calls recorded so far.
func (m *Set) Calls() []results.MockCall {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]results.MockCall(nil), m.calls...)
}

// Unmatched returns the recorded calls no mock answered.
func (m *Set) Unmatched() []results.MockCall {
	var out []results.MockCall
	for _, c := range m.Calls() {
		if c.Mock < 0 {
			out = append(out, c)
		}
	}
	return out
}

// Call asks the mocks to answer service.method(args...). It returns
// ErrNoMock when none matches, a *scenario.MockError for error mocks, or the
// response. A delay honours ctx.
func (m *Set) Call(ctx context.Context, service, method string, args ...any) (any, error) {
	call := mockCall{args: args, input: callInput(args), at: time.Now()}
	for i := range m.mocks {
		mk := &m.mocks[i]
		if mk.Method != method || (mk.Service != "" && mk.Service != service) || !call.matches(mk.When) {
			continue
		}
		if mk.Metadata != nil && mk.Metadata.Probability != nil && !m.draw(ctx, service, method, i, *mk.Metadata.Probability) {
			continue
		}
		if mk.Metadata != nil && mk.Metadata.Delay > 0 {
			t := time.NewTimer(time.Duration(mk.Metadata.Delay) * time.Millisecond)
			select {
			case <-ctx.Done():
				t.Stop()
				m.record(service, method, args, i, ctx.Err())
				return nil, ctx.Err()
			case <-t.C:
			}
		}
		res, err := m.answer(mk, &call)
		m.record(service, method, args, i, err)
		return res, err
	}
	m.record(service, method, args, -1, ErrNoMock)
	return nil, fmt.Errorf("%s.%s: %w", service, method, ErrNoMock)
}

// draw decides whether mock i applies to this call, with chance p.
func (m *Set) draw(ctx context.Context, service, method string, i int, p float64) bool {
	if m.tape == nil {
		return m.uniform() < p
	}
	type mockDraw struct {
		Service string `json:"service"`
		Method  string `json:"method"`
		Mock    int    `json:"mock"`
	}
	u, err := llm.Play(ctx, m.tape, "mock", "", "", mockDraw{service, method, i}, func(context.Context) (float64, error) {
		return m.uniform(), nil
	})
	// A draw that cannot be replayed is on the attempt's record
	// (llm.JobReplayMiss), which is then incomplete: the mock does not apply.
	return err == nil && u < p
}

// uniform draws from the run's seeded source, in [0, 1).
func (m *Set) uniform() float64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.rng == nil {
		m.rng = rand.New(rand.NewPCG(uint64(m.seed), 0x6d6f636b))
	}
	return m.rng.Float64()
}

func (m *Set) record(service, method string, args []any, idx int, err error) {
	c := results.MockCall{Service: service, Method: method, Args: args, Mock: idx, At: time.Now()}
	if err != nil {
		c.Error = err.Error()
	}
	m.mu.Lock()
	m.calls = append(m.calls, c)
	m.mu.Unlock()
}

func (m *Set) answer(mk *scenario.Mock, c *mockCall) (any, error) {
	if mk.Error != nil {
		return nil, &scenario.MockError{Code: mk.Error.Code, Message: mk.Error.Message, Status: mk.Error.Status}
	}
	if mk.ResponseFn != "" {
		text := c.render(mk.ResponseFn)
		if t := strings.TrimSpace(text); strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") {
			var v any
			if err := json.Unmarshal([]byte(t), &v); err != nil {
				return nil, fmt.Errorf("mock %s.%s: responseFn rendered invalid JSON: %w", mk.Service, mk.Method, err)
			}
			return v, nil
		}
		return text, nil
	}
	return mk.Response, nil
}

type mockCall struct {
	args  []any
	input map[string]any
	at    time.Time
}

// callInput merges object arguments (later wins) and adds scalar arguments as arg<i>.
func callInput(args []any) map[string]any {
	in := map[string]any{}
	for i, a := range args {
		switch v := a.(type) {
		case map[string]any:
			for k, x := range v {
				in[k] = x
			}
		case string, float64, int, int64, json.Number:
			in["arg"+strconv.Itoa(i)] = v
		}
	}
	return in
}

func (c *mockCall) context() map[string]any {
	hasObj := false
	for _, a := range c.args {
		if _, ok := a.(map[string]any); ok || a == nil {
			hasObj = true
		}
	}
	return map[string]any{"timestamp": c.at.UTC().Format(time.RFC3339), "argsCount": len(c.args), "hasObjectArgs": hasObj}
}

func (c *mockCall) matches(w *scenario.MockWhen) bool {
	if w == nil {
		return true
	}
	if w.Args != nil && !deepEqual(w.Args, c.args) {
		return false
	}
	if w.PartialArgs != nil {
		if len(c.args) < len(w.PartialArgs) {
			return false
		}
		for i, a := range w.PartialArgs {
			if !deepEqual(a, c.args[i]) {
				return false
			}
		}
	}
	if w.Input != nil && !partialMatch(w.Input, c.input) {
		return false
	}
	if w.Context != nil && !partialMatch(w.Context, c.context()) {
		return false
	}
	if w.Matcher != "" && !c.matcher(w.Matcher) {
		return false
	}
	return true
}

// partialMatch reports whether every key of want is in got with a matching
// value; nested objects match partially too, other values deeply.
func partialMatch(want, got map[string]any) bool {
	for k, w := range want {
		g, ok := got[k]
		if !ok {
			return false
		}
		wm, wIsMap := w.(map[string]any)
		gm, gIsMap := g.(map[string]any)
		if wIsMap && gIsMap {
			if !partialMatch(wm, gm) {
				return false
			}
			continue
		}
		if !deepEqual(w, g) {
			return false
		}
	}
	return true
}

// deepEqual compares JSON-like values, numbers by value whatever their type.
func deepEqual(a, b any) bool {
	if fa, ok := toFloat(a); ok {
		fb, ok := toFloat(b)
		return ok && fa == fb
	}
	switch av := a.(type) {
	case []any:
		bv, ok := b.([]any)
		if !ok || len(av) != len(bv) {
			return false
		}
		for i := range av {
			if !deepEqual(av[i], bv[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		bv, ok := b.(map[string]any)
		if !ok || len(av) != len(bv) {
			return false
		}
		for k, x := range av {
			y, ok := bv[k]
			if !ok || !deepEqual(x, y) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a, b)
}

func toFloat(v any) (float64, bool) { return jsonvalue.Float(v) }

var placeholder = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\$\{\s*([A-Za-z_][A-Za-z0-9_]*)((?:\.[A-Za-z0-9_]+|\[[0-9]+\])*)\s*\}`)
})

// render replaces ${input.x}, ${args[0]}, ${context.argsCount} with values;
// objects render as JSON, a missing value as "undefined".
func (c *mockCall) render(tmpl string) string {
	out, _ := c.renderChecked(tmpl)
	return out
}

// renderChecked is render that also reports whether a placeholder named a
// value the call does not have.
func (c *mockCall) renderChecked(tmpl string) (string, bool) {
	missing := false
	out := placeholder().ReplaceAllStringFunc(tmpl, func(m string) string {
		sub := placeholder().FindStringSubmatch(m)
		var root any
		switch sub[1] {
		case "input":
			root = c.input
		case "args":
			root = c.args
		case "context":
			root = c.context()
		default:
			return m
		}
		v, ok := walkPath(root, sub[2])
		if !ok {
			missing = true
			return "undefined"
		}
		switch x := v.(type) {
		case string:
			return x
		case map[string]any, []any:
			b, _ := json.Marshal(x)
			return string(b)
		default:
			return fmt.Sprint(x)
		}
	})
	return out, missing
}

func walkPath(v any, path string) (any, bool) {
	for path != "" {
		var tok string
		if path[0] == '[' {
			end := strings.IndexByte(path, ']')
			tok, path = path[1:end], path[end+1:]
		} else {
			path = path[1:]
			end := strings.IndexAny(path, ".[")
			if end < 0 {
				end = len(path)
			}
			tok, path = path[:end], path[end:]
		}
		switch c := v.(type) {
		case map[string]any:
			x, ok := c[tok]
			if !ok {
				return nil, false
			}
			v = x
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(c) {
				return nil, false
			}
			v = c[i]
		default:
			return nil, false
		}
	}
	return v, true
}

var comparison = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*(.+?)\s*(===|!==|==|!=|>=|<=|>|<)\s*(.+?)\s*$`) })

// matcher evaluates one comparison after rendering placeholders, such as
// "${input.owner} == 'acme'" or "${input.n} > 10". Without an operator the
// rendered text must be non-empty and not false or 0. A placeholder naming a
// value the call lacks makes the matcher false (the reference rendered it as
// the text "undefined", which compared true against most things).
func (c *mockCall) matcher(expr string) bool {
	text, missing := c.renderChecked(expr)
	if missing {
		return false
	}
	m := comparison().FindStringSubmatch(text)
	if m == nil {
		t := strings.TrimSpace(text)
		return t != "" && t != "false" && t != "0" && t != "undefined"
	}
	l, op, r := unquote(m[1]), m[2], unquote(m[3])
	lf, lerr := strconv.ParseFloat(l, 64)
	rf, rerr := strconv.ParseFloat(r, 64)
	if lerr == nil && rerr == nil {
		return holds(cmp.Compare(lf, rf), op)
	}
	return holds(cmp.Compare(l, r), op)
}

func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '\'' || s[0] == '"') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}

// holds reports whether comparison c (cmp.Compare's result) satisfies op.
func holds(c int, op string) bool {
	switch op {
	case "==", "===":
		return c == 0
	case "!=", "!==":
		return c != 0
	case ">":
		return c > 0
	case "<":
		return c < 0
	case ">=":
		return c >= 0
	case "<=":
		return c <= 0
	}
	return false
}
