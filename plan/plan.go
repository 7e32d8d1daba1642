package plan

import (
	"context"
	"fmt"
	"iter"
	"maps"
	"math"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/agenteval/agenteval/evaluate"
	"github.com/agenteval/agenteval/internal/evalparams"
	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/matrix"
	"github.com/agenteval/agenteval/registry"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/scenario"
)

// shapeVersion is the version of the Plan's JSON shape (plan.schema.json).
const shapeVersion = 1

// Roles of model calls.
const (
	roleAgent = "agent"
	roleUser  = "user"
	roleJudge = "judge"
)

// Tokens are a number of prompt (input) and completion (output) tokens.
type Tokens struct {
	Input  int64 `json:"input"`
	Output int64 `json:"output"`
}

// total is Input + Output.
func (t Tokens) total() int64 { return t.Input + t.Output }

func (t Tokens) add(u Tokens) Tokens { return Tokens{t.Input + u.Input, t.Output + u.Output} }

func (t Tokens) times(n int64) Tokens { return Tokens{t.Input * n, t.Output * n} }

// Assumed are the tokens a model call of each role is assumed to take when
// no past results say better: a forecast from the scenarios' limits.
type Assumed struct {
	Agent, User, Judge Tokens
}

// defaultAssumed is Options.Assumed's default (see there).
func defaultAssumed() Assumed {
	return Assumed{Agent: Tokens{1000, 300}, User: Tokens{500, 200}, Judge: Tokens{1500, 200}}
}

// Options configure Make. Zero fields take the documented defaults.
type Options struct {
	// Concurrency is how many jobs run at once (default 1).
	Concurrency int
	// MaxRequests is run's --max-requests: at most this many model
	// requests in flight at once (0: no limit known). A job that calls a
	// model (its agent, simulated user or judge) waits on those calls, so
	// the forecast runs at most min(Concurrency, MaxRequests) such jobs at
	// once; jobs that call none (echo, a scripted user, no judge) still run
	// Concurrency at once.
	MaxRequests int
	// AgentModel, UserModel and JudgeModel name the models behind each
	// role, for their prices; "" means the role's model is unknown (its
	// cost is then unknown), except that NoAgentModel and NoUserModel say
	// the role makes no paid calls (the echo agent, the scripted user).
	AgentModel, UserModel, JudgeModel string
	NoAgentModel, NoUserModel         bool
	// JobAgentModel, when set, names the agent model of one job ("" for
	// AgentModel, noModel for an agent that makes no paid calls, such as
	// echo): a run whose jobs use different agents and models (a suite's
	// agents × models) is priced job by job, one agent role per model.
	JobAgentModel func(matrix.Job) (model string, noModel bool)
	// Prices is the price table (default DefaultPrices()).
	Prices Prices
	// History holds past results to forecast from (nil: limits only).
	History *History
	// Assumed tokens per call where history is silent (default: an agent
	// turn of 1000 prompt and 300 completion tokens, a simulated-user turn
	// of 500 and its user_simulator.max_tokens (200 unless set), a judge
	// call of 1500 and 200).
	Assumed *Assumed
	// StepTimeout bounds a step that sets none (default 5 minutes, as the runner).
	StepTimeout time.Duration
	// Evaluations is the registry that builds the scenarios' evaluations,
	// to tell which ask the judge (default evaluate.NewRegistry()).
	Evaluations *registry.Registry[*evaluate.Kind]
}

// Plan is the forecast of a run. Its JSON shape is plan.schema.json.
type Plan struct {
	// Version is the version of this JSON shape (plan.schema.json), now 1.
	// It changes only when a field changes meaning or goes away; new fields
	// may be added within a version.
	Version int `json:"version"`
	// Jobs is the number of jobs the forecast covers.
	Jobs int64 `json:"jobs"`
	// Concurrency is the number of jobs at once the wall time assumes.
	Concurrency int `json:"concurrency"`
	// MaxRequests is Options.MaxRequests, the model requests in flight at
	// once the wall time assumes for the jobs that call a model (absent: no
	// limit).
	MaxRequests int `json:"max_requests,omitempty"`
	// Calls counts model calls by role; JudgeSamples are the judge's
	// calls, each sample one call, and JudgeEvaluations the judgments they
	// serve.
	Calls Calls `json:"calls"`
	// Roles break tokens and cost down by role (agent, user, judge).
	Roles []Role `json:"roles"`
	// Tokens is the total over the roles.
	Tokens struct {
		Input  int64 `json:"input"`
		Output int64 `json:"output"`
		Total  int64 `json:"total"`
	} `json:"tokens"`
	// CostUSD is the total cost; null when a role that makes calls has no
	// known price (CostUnknown says which), never a silent 0.
	CostUSD     *float64 `json:"cost_usd" jsonschema:"oneof_type=number;null"`
	CostUnknown []string `json:"cost_unknown,omitempty"`
	// WallMS is the forecast wall time at Concurrency; JobMS the time of
	// all jobs one after another; LongestJobMS the longest job's.
	WallMS       float64 `json:"wall_ms"`
	JobMS        float64 `json:"job_ms"`
	LongestJobMS float64 `json:"longest_job_ms"`
	// Basis counts the jobs forecast from past results and from limits:
	// HistoryJobs were forecast from past results of the same job key
	// (source/combination) or scenario; LimitJobs from the scenario's
	// limits (max_turns, timeouts) and Assumed tokens.
	Basis struct {
		HistoryJobs int64 `json:"history_jobs"`
		LimitJobs   int64 `json:"limit_jobs"`
	} `json:"basis"`
	// Sources break the forecast down by source (scenario or matrix file id).
	Sources []Source `json:"sources"`
	// Notes say what the forecast assumes or cannot know.
	Notes []string `json:"notes,omitempty"`
}

// Calls counts model calls by role.
type Calls struct {
	Agent            int64 `json:"agent"`
	User             int64 `json:"user"`
	Judge            int64 `json:"judge"`
	JudgeEvaluations int64 `json:"judge_evaluations"`
}

// Role is one role's calls, tokens and cost.
type Role struct {
	Role string `json:"role"`
	// Agent names a suite's agent (the agent role of each agent × model).
	Agent string `json:"agent,omitempty"`
	Model string `json:"model,omitempty"`
	Calls int64  `json:"calls"`
	// Tokens forecast for the role's calls.
	InputTokens  int64 `json:"input_tokens"`
	OutputTokens int64 `json:"output_tokens"`
	// Price is the model's price (null when unknown or no model).
	Price *Price `json:"price,omitempty"`
	// CostUSD is null when the price is unknown.
	CostUSD *float64 `json:"cost_usd" jsonschema:"oneof_type=number;null"`
}

// Source is the forecast of one source's jobs.
type Source struct {
	Source string `json:"source"`
	Jobs   int64  `json:"jobs"`
	Calls  Calls  `json:"calls"`
	// Tokens over every role.
	Tokens int64 `json:"tokens"`
	// JobMS is the forecast time of one job (the mean over its jobs).
	JobMS float64 `json:"job_ms"`
	// Basis is "history", "limits" or "history+limits".
	Basis string `json:"basis"`
}

// jobShape is what one scenario's job costs by the scenario's limits.
type jobShape struct {
	calls  Calls
	tokens [3]Tokens // agent, user, judge
	ms     float64
}

// Make forecasts the jobs: the same jobs a run with the same sources,
// filters, runs and shard would run (agenteval.Kit.Jobs). It reads a
// scenario once for the runs of one combination (jobs with one
// source/combination key in a row), so matrices forecast at about the
// speed of their expansion.
func Make(ctx context.Context, jobs iter.Seq2[matrix.Job, error], opts Options) (*Plan, error) {
	o := opts
	if o.Concurrency < 1 {
		o.Concurrency = 1
	}
	if o.Prices == nil {
		o.Prices = DefaultPrices()
	}
	if o.Assumed == nil {
		a := defaultAssumed()
		o.Assumed = &a
	}
	if o.StepTimeout <= 0 {
		o.StepTimeout = 5 * time.Minute
	}
	if o.Evaluations == nil {
		o.Evaluations = evaluate.NewRegistry()
	}
	if o.MaxRequests < 0 {
		o.MaxRequests = 0
	}
	p := &Plan{Version: shapeVersion, Concurrency: o.Concurrency, MaxRequests: o.MaxRequests, Roles: []Role{}, Sources: []Source{}}
	var modelMS float64 // the time of the jobs that call a model
	var tokens [3]Tokens
	agents := map[string]*Role{} // by model
	var agentOrder []string
	lastKey := "\x00" // no job's key
	var shape jobShape
	var judged judgeCounts
	srcs := map[string]*Source{}
	var order []string
	notes := map[string]bool{}
	for j, err := range jobs {
		if err != nil {
			return nil, err
		}
		if p.Jobs%4096 == 0 && ctx.Err() != nil {
			return nil, context.Cause(ctx)
		}
		p.Jobs++
		key, src := jobKey(j.ID)
		// The runs of one combination are one scenario: jobs come in index
		// order, so its runs are next to each other.
		if key != lastKey {
			shape = shapeOf(j.Scenario, &o, &judged, notes)
			lastKey = key
		}
		js := shape
		basis := "limits"
		if h, ok := o.History.lookup(key, j.Scenario.ID); ok {
			basis = "history"
			js.tokens[0] = h.tokens
			js.ms = h.ms
			p.Basis.HistoryJobs++
		} else {
			p.Basis.LimitJobs++
		}
		model, noModel := o.AgentModel, o.NoAgentModel
		if o.JobAgentModel != nil {
			if m, none := o.JobAgentModel(j); m != "" || none {
				model, noModel = m, none
			}
		}
		akey := j.Agent + "\x00" + model // a suite's agents are roles of their own
		if noModel {
			js.tokens[0] = Tokens{} // the echo agent: no model, no tokens
			akey = j.Agent + noModelKey
		}
		if o.NoUserModel {
			js.tokens[1] = Tokens{} // the scripted user
		}
		for r := range tokens {
			tokens[r] = tokens[r].add(js.tokens[r])
		}
		a := agents[akey]
		if a == nil {
			a = &Role{Role: roleAgent, Agent: j.Agent, Model: model}
			agents[akey] = a
			agentOrder = append(agentOrder, akey)
		}
		a.Calls += js.calls.Agent
		a.InputTokens += js.tokens[0].Input
		a.OutputTokens += js.tokens[0].Output
		addCalls(&p.Calls, js.calls)
		p.JobMS += js.ms
		if (!noModel && js.calls.Agent > 0) || (!o.NoUserModel && js.calls.User > 0) || js.calls.Judge > 0 {
			modelMS += js.ms
		}
		p.LongestJobMS = max(p.LongestJobMS, js.ms)
		s := srcs[src]
		if s == nil {
			s = &Source{Source: src, Basis: basis}
			srcs[src] = s
			order = append(order, src)
		}
		s.Jobs++
		addCalls(&s.Calls, js.calls)
		s.Tokens += js.tokens[0].total() + js.tokens[1].total() + js.tokens[2].total()
		s.JobMS += js.ms
		if s.Basis != basis {
			s.Basis = "history+limits"
		}
	}
	for _, src := range order {
		s := srcs[src]
		s.JobMS /= float64(s.Jobs)
		p.Sources = append(p.Sources, *s)
	}
	// Jobs are handed out one at a time to Concurrency workers: the wall
	// time is at least the even share and at least the longest job. Under
	// MaxRequests, the jobs that call a model share fewer workers.
	modelWorkers := o.Concurrency
	if o.MaxRequests > 0 {
		modelWorkers = min(o.Concurrency, o.MaxRequests)
	}
	p.WallMS = max(modelMS/float64(modelWorkers)+(p.JobMS-modelMS)/float64(o.Concurrency), p.LongestJobMS)
	if len(agentOrder) == 0 {
		k := "\x00" + o.AgentModel
		if o.NoAgentModel {
			k = noModelKey
		}
		agentOrder, agents[k] = []string{k}, &Role{Role: roleAgent, Model: o.AgentModel}
	}
	roles := make([]Role, 0, len(agentOrder)+2)
	none := map[int]bool{} // roles that make no paid calls
	for _, k := range agentOrder {
		none[len(roles)] = strings.HasSuffix(k, noModelKey)
		roles = append(roles, *agents[k])
	}
	none[len(roles)] = o.NoUserModel
	roles = append(roles,
		Role{Role: roleUser, Model: o.UserModel, Calls: p.Calls.User, InputTokens: tokens[1].Input, OutputTokens: tokens[1].Output},
		Role{Role: roleJudge, Model: o.JudgeModel, Calls: p.Calls.Judge, InputTokens: tokens[2].Input, OutputTokens: tokens[2].Output})
	p.price(&o, roles, none)
	if p.Basis.LimitJobs > 0 {
		notes[fmt.Sprintf("%d job(s) forecast from limits: every conversation runs to max_turns and every step may take its whole timeout (an upper bound), with assumed tokens per call (agent %d+%d, judge %d+%d prompt+completion)",
			p.Basis.LimitJobs, o.Assumed.Agent.Input, o.Assumed.Agent.Output, o.Assumed.Judge.Input, o.Assumed.Judge.Output)] = true
	}
	if p.Basis.HistoryJobs > 0 {
		notes[fmt.Sprintf("%d job(s) forecast from past results (mean agent tokens and duration of the same job, else of the same scenario); their simulated-user and judge calls from limits", p.Basis.HistoryJobs)] = true
	}
	if p.Calls.Judge > 0 {
		notes["judge calls are counted without the judge cache (a cached verdict costs nothing)"] = true
	}
	notes["retries (allowed_retries) are not counted: each retry repeats a job's calls"] = true
	p.Notes = slices.Sorted(maps.Keys(notes))
	return p, nil
}

func addCalls(c *Calls, d Calls) {
	c.Agent += d.Agent
	c.User += d.User
	c.Judge += d.Judge
	c.JudgeEvaluations += d.JudgeEvaluations
}

// price prices the roles and fills the tokens and the cost.
func (p *Plan) price(o *Options, roles []Role, none map[int]bool) {
	known := true
	var total float64
	for i, role := range roles {
		p.Tokens.Input += role.InputTokens
		p.Tokens.Output += role.OutputTokens
		who := role.Role
		if role.Agent != "" {
			who += " " + role.Agent
		}
		switch {
		case none[i] || role.Calls == 0:
			role.CostUSD = ptr(0.0)
		case role.Model == "":
			known = false
			p.CostUnknown = append(p.CostUnknown, fmt.Sprintf("%s: the model is not known (name it to price its %d call(s))", who, role.Calls))
		default:
			pr, ok := o.Prices.Lookup(role.Model)
			if !ok {
				known = false
				p.CostUnknown = append(p.CostUnknown, fmt.Sprintf("%s: no price for model %q (give it in a prices file)", who, role.Model))
				break
			}
			role.Price = &pr
			c := pr.Cost(llm.Usage{PromptTokens: clampInt(role.InputTokens), CompletionTokens: clampInt(role.OutputTokens)})
			role.CostUSD = &c
			total += c
		}
		p.Roles = append(p.Roles, role)
	}
	p.Tokens.Total = p.Tokens.Input + p.Tokens.Output
	if known {
		p.CostUSD = &total
	}
}

func clampInt(v int64) int { return int(min(v, math.MaxInt)) }

func ptr[T any](v T) *T { return &v }

// noModelKey groups the jobs of agents that make no paid calls.
const noModelKey = "\x00none"

// jobKey splits a job id source/combination/run-N into its key
// (source/combination) and source.
func jobKey(id string) (key, source string) {
	key = id
	if i := strings.LastIndex(id, "/run-"); i > 0 {
		key = id[:i]
	}
	source = key
	if i := strings.LastIndexByte(key, '/'); i > 0 {
		source = key[:i]
	}
	return key, source
}

// judgeCounts are the judge calls of one scenario's evaluations, by step
// and scope (step, turn, final), kept for the next combination: a
// matrix's combinations mostly differ in what the agent is asked, not in
// their evaluations, and compiling them (a regular expression each) was
// most of a forecast's time.
type judgeCounts struct {
	of    *scenario.Scenario // the scenario counted (nil: none yet)
	steps [][3]struct{ calls, evals int64 }
}

// count sets c to s's judge calls: compiled, unless the scenario counted
// before has the same id, judgment and evaluations (compiling depends on
// nothing else).
func (c *judgeCounts) count(s *scenario.Scenario, o *Options, notes map[string]bool) {
	if c.of != nil && sameEvaluations(c.of, s) {
		c.of = s
		return
	}
	c.of = s
	c.steps = make([][3]struct{ calls, evals int64 }, len(s.Run))
	comp, err := evaluate.Compile(o.Evaluations, s)
	if err != nil {
		notes[fmt.Sprintf("scenario %s: its evaluations do not compile, so its judge calls are not counted: %v", s.ID, err)] = true
		return
	}
	for i := range s.Run {
		for k, scope := range []results.Scope{results.ScopeStep, results.ScopeTurn, results.ScopeFinal} {
			for _, ch := range comp.Checks(scope, i) {
				if !ch.Needs.Judge {
					continue
				}
				c.steps[i][k].evals++
				n := int64(1)
				if lj, ok := ch.Evaluation.Params.(*evalparams.LLMJudge); ok && lj.Samples > 1 {
					n = int64(lj.Samples)
				}
				c.steps[i][k].calls += n
			}
		}
	}
}

// sameEvaluations reports whether a and b compile alike: the same id (a
// note names it), judgment (its weights fill in the evaluations') and
// evaluations in every step and scope.
func sameEvaluations(a, b *scenario.Scenario) bool {
	if a == b {
		return true
	}
	if a.ID != b.ID || len(a.Run) != len(b.Run) || !reflect.DeepEqual(a.Judgment, b.Judgment) {
		return false
	}
	for i := range a.Run {
		sa, sb := &a.Run[i], &b.Run[i]
		if !reflect.DeepEqual(sa.Evaluations, sb.Evaluations) || (sa.Conversation == nil) != (sb.Conversation == nil) {
			return false
		}
		if ca, cb := sa.Conversation, sb.Conversation; ca != nil &&
			(!reflect.DeepEqual(ca.TurnEvaluations, cb.TurnEvaluations) || !reflect.DeepEqual(ca.FinalEvaluations, cb.FinalEvaluations)) {
			return false
		}
	}
	return true
}

// shapeOf forecasts one job of s from its limits; judged counts its judge
// calls (and keeps them for the next scenario).
func shapeOf(s *scenario.Scenario, o *Options, judged *judgeCounts, notes map[string]bool) jobShape {
	var js jobShape
	judged.count(s, o, notes)
	judgeCalls := func(scope results.Scope, step int) (calls, evals int64) {
		k := 0
		switch scope {
		case results.ScopeTurn:
			k = 1
		case results.ScopeFinal:
			k = 2
		}
		n := judged.steps[step][k]
		return n.calls, n.evals
	}
	var ms float64
	stepMS := func(st *scenario.RunStep) float64 {
		if d := time.Duration(st.Timeout); d > 0 {
			return float64(d) / float64(time.Millisecond)
		}
		return float64(o.StepTimeout) / float64(time.Millisecond)
	}
	userOut := o.Assumed.User.Output
	for i := range s.Run {
		st := &s.Run[i]
		jc, je := judgeCalls(results.ScopeStep, i)
		js.calls.Judge += jc
		js.calls.JudgeEvaluations += je
		switch cv := st.Conversation; {
		case cv != nil:
			turns := int64(max(1, cv.MaxTurns))
			js.calls.Agent += turns
			user := turns - 1
			js.calls.User += user
			out := userOut
			if cv.UserSimulator != nil && cv.UserSimulator.MaxTokens > 0 {
				out = int64(cv.UserSimulator.MaxTokens)
			}
			js.tokens[1] = js.tokens[1].add(Tokens{o.Assumed.User.Input, out}.times(user))
			tc, te := judgeCalls(results.ScopeTurn, i)
			js.calls.Judge += tc * turns
			js.calls.JudgeEvaluations += te * turns
			fc, fe := judgeCalls(results.ScopeFinal, i)
			js.calls.Judge += fc
			js.calls.JudgeEvaluations += fe
			for _, t := range cv.TerminationConditions {
				if t.LLMJudge != nil && len(t.Keywords) == 0 {
					js.calls.Judge += turns
					js.calls.JudgeEvaluations += turns
				}
			}
			perTurn := cv.TimeoutPerTurnMS
			if perTurn <= 0 {
				perTurn = 30_000
			}
			total := cv.TotalTimeoutMS
			if total <= 0 {
				total = 300_000
			}
			ms += math.Min(float64(total), float64(perTurn)*float64(turns))
		case strings.TrimSpace(st.Code) != "":
			ms += stepMS(st)
		default:
			js.calls.Agent++
			ms += stepMS(st)
		}
	}
	if s.TimeoutMS > 0 {
		ms = math.Min(ms, float64(s.TimeoutMS))
	}
	js.ms = ms
	js.tokens[0] = o.Assumed.Agent.times(js.calls.Agent)
	js.tokens[2] = o.Assumed.Judge.times(js.calls.Judge)
	return js
}
