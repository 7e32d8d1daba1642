package runner

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/agenteval/agenteval/environment"
	"github.com/agenteval/agenteval/evaluate"
	"github.com/agenteval/agenteval/internal/mockset"
	"github.com/agenteval/agenteval/internal/usagecheck"
	"github.com/agenteval/agenteval/judge"
	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/matrix"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/scenario"
)

// errTimeout marks a step, turn or run that exceeded its time.
var errTimeout = errors.New("timed out")

// attempt runs one attempt of a job: environment, session, steps with their
// evaluations, checkpoints, verdict.
func (r *run) attempt(ctx context.Context, j matrix.Job, attemptNo int, w *worker) *results.Job {
	res := r.newResult(j)
	start := res.Started
	w.startup = 0
	defer func() {
		res.DurationMS = float64((time.Since(start) - w.startup).Microseconds()) / 1000
		res.AgentStartupMS = float64(w.startup.Microseconds()) / 1000
	}()
	s := j.Scenario
	if r.cfg.Live && s.Setup != nil && len(s.Setup.Mocks) > 0 {
		// Live: the agent calls its real services, as scenario run --live
		// does; the job's scenario is a copy without the mocks (agents
		// read them from it), the one the run shares untouched.
		live, setup := *s, *s.Setup
		setup.Mocks = nil
		live.Setup = &setup
		s = &live
		j.Scenario = s
		res.Notes = append(res.Notes, "live: the scenario's setup.mocks were not applied (--live)")
	}
	if s.TimeoutMS > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, time.Duration(s.TimeoutMS)*time.Millisecond,
			fmt.Errorf("scenario timeout of %d ms: %w", s.TimeoutMS, errTimeout))
		defer cancel()
	}
	// The attempt's model calls, mock draws and checkpoint answers are
	// numbered within it (record/replay keys them so), and its model
	// failures are kept for the cause of an evaluation that got no answer.
	ctx = llm.WithJob(ctx, j.ID, attemptNo)
	fail := func(format string, args ...any) *results.Job {
		res.Error = fmt.Sprintf(format, args...)
		res.Reason = "not completed: " + res.Error
		if res.Cause == "" {
			res.Cause = results.CauseNoVerdict
		}
		return res
	}
	if s.Fixture != nil || len(s.Checkpoints) > 0 {
		if r.cfg.Fixtures != nil {
			bound, release, err := r.cfg.Fixtures.Prepare(ctx, s)
			if release != nil {
				defer r.releaseFixtures(ctx, release, res)
			}
			if err != nil {
				res.Cause = causeOf(err, results.CauseNoVerdict)
				return fail("fixture: %v", err)
			}
			s = bound
		} else if s.Fixture != nil {
			return fail("the scenario needs fixture %v but no fixture manifest is configured (--manifest)", s.Fixture.Requires)
		}
	}
	compiled, err := w.compiled, w.compileErr
	if s != j.Scenario {
		compiled, err = evaluate.Compile(r.cfg.Registries.Evaluations, s) // bound to its fixture: another variant
	}
	if err != nil {
		return fail("evaluations: %v", err)
	}
	needs := compiled.Needs()
	env, envName, err := r.cfg.environment(s.Environment.Type)
	if err != nil {
		return fail("%v", err)
	}
	res.Environment = envName
	if envName != s.Environment.Type {
		res.Notes = append(res.Notes, fmt.Sprintf("environment %q has no provider here; ran in %q instead (EnvFallback)", s.Environment.Type, envName))
	}
	needDir := needs.Dir || needs.Commands || hasCode(s) || (s.Setup != nil && len(s.Setup.VirtualFS) > 0) || s.Environment.Setup != nil
	if wa, ok := r.agentFor(j).(interface{ NeedsDir() bool }); ok && wa.NeedsDir() {
		needDir = true
	}
	ws, err := env.Prepare(ctx, environment.Request{JobID: j.ID, Scenario: s, NeedDir: needDir, BaseDir: r.cfg.WorkDir, Keep: r.cfg.KeepDirs})
	if err != nil {
		return fail("environment: %v", err)
	}
	defer ws.Close()
	seed := jobSeed(r.cfg.Seed, j.ID, attemptNo)
	var mockList []scenario.Mock
	if s.Setup != nil {
		mockList = s.Setup.Mocks
	}
	mocks := mockset.New(mockList, seed, r.cfg.Cassette)
	// The trace is the worker's, reused job after job: nothing keeps it
	// past the attempt (transcripts copy its turns).
	trace := &w.trace
	*trace = evaluate.Trace{ScenarioID: s.ID, Dir: ws.Dir(), Started: start, Steps: trace.Steps[:0]}
	evalEnv := r.evalEnv
	var sess Session
	needsAgent := false
	for _, st := range s.Run {
		if st.Code == "" || st.Input != "" || st.Conversation != nil {
			needsAgent = true
		}
	}
	if needsAgent {
		plugins := make([]scenario.Plugin, 0, len(s.Plugins))
		for _, p := range s.Plugins {
			if p.IsEnabled() {
				plugins = append(plugins, p)
			}
		}
		agent := r.agentFor(j)
		if agent == nil {
			return fail("no agent %q with model %q in this run", j.Agent, j.Model)
		}
		w.inline = cooperative(agent)
		sc := SessionConfig{JobID: j.ID, Scenario: s, Character: s.Character, Plugins: plugins, Dir: ws.Dir(), Mocks: mocks, Seed: seed}
		sess, err = callTimeout(ctx, w, r.cfg.StepTimeout, func(ctx context.Context) (Session, error) {
			return agent.NewSession(ctx, sc)
		}, closeSession)
		if err != nil {
			closeSession(sess) // a session returned alongside an error is not used
			res.Cause = causeOf(err, results.CauseAgentCrash)
			res.Crash = crashOf(err)
			return fail("starting the agent session: %v", err)
		}
		defer func() {
			// Closing may have to kill what the agent left running: say so.
			if err := sess.Close(); err != nil {
				res.Notes = append(res.Notes, "closing the agent session: "+err.Error())
			}
		}()
	}
	completed := true
	for i := range s.Run {
		step := &s.Run[i]
		trace.Steps = append(trace.Steps, evaluate.StepTrace{Index: i, Name: step.Name, Started: time.Now()})
		st := &trace.Steps[len(trace.Steps)-1]
		stepErr := r.runStep(ctx, s, step, st, sess, ws, trace, compiled, evalEnv, res, seed, w)
		if step.Conversation == nil {
			res.Evaluations = appendResults(res.Evaluations, compiled.Evaluate(ctx, evaluate.Input{Trace: trace, Step: i, Turn: -1, Scope: results.ScopeStep, Env: evalEnv}))
		}
		trace.Usage = trace.Usage.Add(st.Usage)
		if stepErr != nil {
			st.Error = stepErr.Error()
			res.Crash = crashOf(stepErr)
			res.Error = fmt.Sprintf("step %d (%s): %v", i, stepLabel(step), stepErr)
			dflt := results.CauseAgentCrash // the session failed to answer
			if isCodeStep(step) {
				dflt = results.CauseNoVerdict
			}
			res.Cause = causeOf(stepErr, dflt)
			completed = false
			break
		}
	}
	trace.Ended = time.Now()
	res.Usage = trace.Usage
	res.Efficiency = r.efficiency(trace)
	for _, st := range trace.Steps {
		if st.TerminationReason != "" {
			res.TerminationReasons = append(res.TerminationReasons, st.TerminationReason)
		}
	}
	if calls := mocks.Calls(); len(calls) > 0 {
		res.MockCalls = calls
	}
	if completed && len(s.Checkpoints) > 0 {
		if r.cfg.Checkpoints == nil {
			return fail("the scenario has %d checkpoint(s) but no checkpoint executor is configured (GitHub token or --graphql-url)", len(s.Checkpoints))
		}
		cps, err := r.cfg.Checkpoints.ScoreCheckpoints(ctx, s)
		res.Checkpoints = cps
		if err != nil {
			res.Cause = causeOf(err, results.CauseNoVerdict)
			return fail("checkpoints: %v", err)
		}
	}
	if completed && len(res.Evaluations) == 0 && len(res.Checkpoints) == 0 {
		// Nothing was checked: the run neither passed nor failed.
		completed = false
		res.Error = "nothing was checked: the scenario has no evaluations and no checkpoints, so its runs can neither pass nor fail"
	}
	if completed {
		// An evaluation that could not judge (no judge model, a model error, a
		// panic) leaves no verdict to trust: the run is incomplete, not failed.
		for _, e := range res.Evaluations {
			if e.Error != "" {
				completed = false
				res.Error = fmt.Sprintf("evaluation %s (%s) reached no verdict: %s", evalName(e), e.Where(), e.Error)
				// The evaluation keeps only its error's text: a model call
				// of this attempt that failed says whether it was the
				// infrastructure (a judge lost to 429s, say).
				res.Cause = causeOf(llm.JobFailure(ctx), results.CauseNoVerdict)
				break
			}
		}
	}
	if miss := llm.JobReplayMiss(ctx); miss != nil {
		// A replayed call that was not recorded leaves the attempt
		// unreproduced, whatever the agent made of the error.
		completed = false
		res.Error = miss.Error()
		res.Cause = results.CauseNoVerdict
	}
	if !completed {
		res.Reason = "not completed: " + res.Error
		if res.Cause == "" {
			res.Cause = results.CauseNoVerdict
		}
		r.keepEvidence(res, trace, sess)
		return res
	}
	res.Completed = true
	r.decide(s, res, mocks, w)
	r.keepEvidence(res, trace, sess)
	return res
}

func (r *run) runStep(ctx context.Context, s *scenario.Scenario, step *scenario.RunStep, st *evaluate.StepTrace,
	sess Session, ws environment.Workspace, trace *evaluate.Trace, compiled *evaluate.Compiled, evalEnv *evaluate.Env, res *results.Job, seed int64, w *worker) error {
	timeout := r.cfg.StepTimeout
	if step.Timeout > 0 {
		timeout = time.Duration(step.Timeout)
	}
	switch {
	case step.Conversation != nil:
		st.Kind = "conversation"
		st.Input = step.Input
		return r.converse(ctx, s, step, st, sess, trace, compiled, evalEnv, res, seed, w)
	case step.Input != "" || step.Code == "":
		st.Kind = "input"
		st.Input = step.Input
		reply, startup, err := send(ctx, w, timeout, sess, step.Input)
		st.Duration = time.Since(st.Started) - startup // the step started just before this call (no clock read between)
		st.Reply, st.Actions, st.Usage, st.Thought, st.EndReason = reply.Text, reply.Actions, reply.Usage, reply.Thought, reply.EndReason
		return err
	default:
		st.Kind = "code"
		st.Input = step.Code
		t0 := time.Now()
		cctx, cancel := context.WithTimeoutCause(ctx, timeout, fmt.Errorf("code step timeout of %v: %w", timeout, errTimeout))
		defer cancel()
		out, err := ws.RunCode(cctx, step.Lang, step.Code)
		st.Duration = time.Since(t0)
		st.Stdout, st.Stderr, st.ExitCode = out.Stdout, out.Stderr, out.ExitCode
		for _, n := range out.Notes {
			res.Notes = append(res.Notes, fmt.Sprintf("step %d: %s", st.Index, n))
		}
		if err != nil && cctx.Err() != nil && !errors.Is(err, context.Cause(cctx)) {
			return fmt.Errorf("%w: %v", context.Cause(cctx), err)
		}
		return err
	}
}

// decide turns evaluation and checkpoint results into the verdict.
func (r *run) decide(s *scenario.Scenario, res *results.Job, mocks *mockset.Set, w *worker) {
	outcomes := w.outcomes[:0]
	defer func() { w.outcomes = outcomes[:0] }()
	for i := range res.Evaluations {
		e := &res.Evaluations[i]
		outcomes = append(outcomes, judge.Outcome{Name: evalName(*e), Passed: e.Passed, Score: e.Score, Weight: &e.Weight, Critical: e.Critical})
	}
	for i, c := range res.Checkpoints {
		o := judge.Outcome{Name: "checkpoint " + c.ID, Passed: c.Passed}
		if c.Passed {
			o.Score = 1
		}
		if i < len(s.Checkpoints) {
			o.Weight = s.Judgment.CheckpointWeight(&s.Checkpoints[i])
			o.Critical = s.Checkpoints[i].Critical
		}
		outcomes = append(outcomes, o)
	}
	d, err := judge.Decide(r.cfg.Registries.Strategies, s.Judgment.Strategy, outcomes, judge.Options{Threshold: s.Judgment.Threshold})
	if err != nil {
		res.Passed, res.Reason = false, err.Error()
		return
	}
	res.Passed, res.Score, res.Reason = d.Passed, d.Score, d.Reason
	if r.cfg.StrictMocks {
		if un := mocks.Unmatched(); len(un) > 0 {
			res.Passed = false
			res.Reason = fmt.Sprintf("strict mocks: %d call(s) no mock answered, first %s.%s", len(un), un[0].Service, un[0].Method)
		}
	}
}

// appendResults appends rs to dst, taking rs itself when dst is empty
// (the usual one step: no copy).
func appendResults(dst, rs []results.Evaluation) []results.Evaluation {
	if len(dst) == 0 {
		return rs
	}
	return append(dst, rs...)
}

func evalName(e results.Evaluation) string {
	if e.Description != "" {
		return e.Type + " (" + e.Description + ")"
	}
	return e.Type
}

func stepLabel(st *scenario.RunStep) string {
	if st.Name != "" {
		return st.Name
	}
	switch {
	case st.Conversation != nil:
		return "conversation"
	case st.Input != "":
		return "input"
	}
	return "code"
}

func hasCode(s *scenario.Scenario) bool {
	for i := range s.Run {
		if isCodeStep(&s.Run[i]) {
			return true
		}
	}
	return false
}

// transcriptOf keeps the messages of a run for failing jobs' reports: every
// conversation's turns, or the steps' inputs and replies.
func transcriptOf(t *evaluate.Trace) []results.Turn {
	var out []results.Turn
	for _, st := range t.Steps {
		switch st.Kind {
		case "conversation":
			out = append(out, st.Turns...)
		case "input":
			out = append(out, results.Turn{Role: "user", Text: st.Input, At: st.Started},
				results.Turn{Role: "assistant", Text: st.Reply, At: st.Started.Add(st.Duration), Duration: st.Duration, Thought: st.Thought, EndReason: st.EndReason,
					Usage: st.Usage, Actions: st.Actions})
		}
	}
	return out
}

// jobSeed derives a job's seed from the run seed, its id and the attempt,
// so that every job is repeatable on its own, whatever runs beside it.
func jobSeed(seed int64, id string, attempt int) int64 {
	// FNV-1a (hash/fnv's) over the seed's 8 bytes, little-endian, the id
	// and the attempt's low byte, computed inline: no allocation.
	const offset64, prime64 = 14695981039346656037, 1099511628211
	h := uint64(offset64)
	for i := range 8 {
		h = (h ^ uint64(byte(seed>>(8*i)))) * prime64
	}
	for i := 0; i < len(id); i++ {
		h = (h ^ uint64(id[i])) * prime64
	}
	h = (h ^ uint64(byte(attempt))) * prime64
	return int64(h >> 1)
}

// send sends one message, guarded by callTimeout. It returns as well the
// part of the call's time the session spent waiting for the agent's
// program to start, which the attempt's durations leave out: a session
// says so with an anonymous method, TakeStartup() time.Duration, that
// returns the start-up it has not reported yet (agent/exec's sessions on
// a persistent program; there is no runner interface for it).
func send(ctx context.Context, w *worker, timeout time.Duration, sess Session, msg string) (Reply, time.Duration, error) {
	t0 := time.Now()
	reply, err := callTimeout(ctx, w, timeout, func(ctx context.Context) (Reply, error) { return sess.Send(ctx, msg) }, nil)
	if uerr := usagecheck.Check(reply.Usage); uerr != nil {
		reply = Reply{}
		if err == nil {
			err = uerr
		}
	}
	var startup time.Duration
	// Only after a call that returned: an abandoned one may still be running.
	if s, ok := sess.(interface{ TakeStartup() time.Duration }); ok && err == nil {
		startup = min(max(s.TakeStartup(), 0), time.Since(t0))
		w.startup += startup
	}
	return reply, startup, err
}

// fixtureReleaseTimeout bounds the removal of an attempt's fresh fixtures.
const fixtureReleaseTimeout = 2 * time.Minute

// releaseFixtures removes the fixtures seeded for one attempt, once it is
// over (checkpoints scored), even when the attempt was cancelled or timed
// out; a failure is noted on the result, whose verdict it does not change.
func (r *run) releaseFixtures(ctx context.Context, release func(context.Context) error, res *results.Job) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), fixtureReleaseTimeout)
	defer cancel()
	if err := release(ctx); err != nil {
		res.Notes = append(res.Notes, err.Error())
	}
}

// closeSession closes a session the runner will not use: one NewSession
// returned after the runner gave up on it, or together with an error.
func closeSession(s Session) {
	if s != nil {
		_ = s.Close()
	}
}
