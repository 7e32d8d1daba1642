package runner

import (
	"context"
	"fmt"
	"time"

	"github.com/agenteval/agenteval/evaluate"
	"github.com/agenteval/agenteval/internal/converse"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/scenario"
)

// reasonTotalTimeout is the termination reason of a conversation that ran
// out of time (converse.MaxTurnsReached is the other the loop records).
const reasonTotalTimeout = "total_timeout"

// defaultFirstMessage opens a conversation whose step has no input.
const defaultFirstMessage = "Hello, I need help."

// Bounds for a conversation given to the runner without the loader's
// defaults (the loader fills the format's: the same values).
const (
	defaultTotalTimeout = 300 * time.Second
	defaultTurnTimeout  = 30 * time.Second
)

// converse runs a conversation step: the agent answers, turn evaluations run,
// termination conditions are checked on the right speaker, the simulated user
// answers, until a condition holds, max_turns is reached or time runs out.
func (r *run) converse(ctx context.Context, s *scenario.Scenario, step *scenario.RunStep, st *evaluate.StepTrace,
	sess Session, trace *evaluate.Trace, compiled *evaluate.Compiled, evalEnv *evaluate.Env, res *results.Job, seed int64, w *worker) error {
	conv := step.Conversation
	if r.cfg.UserModel == nil && conv.MaxTurns > 1 {
		return fmt.Errorf("a conversation needs a user simulator model (runner.Config.UserModel; --user-model on the CLI)")
	}
	if r.cfg.Judge == nil {
		for i, c := range conv.TerminationConditions {
			if c.LLMJudge != nil && len(c.Keywords) == 0 {
				// Without a judge this condition could never hold: say so
				// rather than run to max_turns as if it had been checked.
				return fmt.Errorf("termination_conditions[%d] (%s) is decided by llm_judge, but no judge model is configured (--judge-model)", i, c.Type)
			}
		}
	}
	total := time.Duration(conv.TotalTimeoutMS) * time.Millisecond
	if total <= 0 {
		total = defaultTotalTimeout
	}
	ctx, cancel := context.WithTimeoutCause(ctx, total, fmt.Errorf("conversation total_timeout_ms %d: %w", conv.TotalTimeoutMS, errTimeout))
	defer cancel()
	perTurn := time.Duration(conv.TimeoutPerTurnMS) * time.Millisecond
	if perTurn <= 0 {
		perTurn = defaultTurnTimeout
	}
	msg := step.Input
	if msg == "" {
		msg = defaultFirstMessage
	}
	stepIdx := len(trace.Steps) - 1
	sim := converse.NewSimulator(r.cfg.UserModel, conv.UserSimulator, seed)
	st.Turns = append(st.Turns, results.Turn{Role: "user", Text: msg, At: time.Now()})
	var convErr error
	for turn := 1; ; turn++ {
		t0 := time.Now()
		reply, startup, err := send(ctx, w, perTurn, sess, msg)
		d := time.Since(t0) - startup
		st.Duration += d
		if err != nil {
			if ctx.Err() != nil {
				st.TerminationReason = reasonTotalTimeout
			}
			if reply.Text != "" || len(reply.Actions) > 0 || reply.Thought != "" { // a partial reply: kept, not judged
				addTurn(st, reply, d)
			}
			convErr = fmt.Errorf("turn %d: %w", turn, err)
			break
		}
		addTurn(st, reply, d)
		res.Evaluations = append(res.Evaluations, compiled.Evaluate(ctx, evaluate.Input{Trace: trace, Step: stepIdx, Turn: len(st.Turns) - 1, Scope: results.ScopeTurn, Env: evalEnv})...)
		if reason := r.terminated(ctx, conv, st, "assistant", res); reason != "" {
			st.TerminationReason = reason
			break
		}
		if turn >= conv.MaxTurns {
			st.TerminationReason = converse.MaxTurnsReached
			break
		}
		t1 := time.Now()
		next, usage, err := sim.Next(ctx, st.Turns, turn)
		res.UserUsage = res.UserUsage.Add(usage)
		if err != nil {
			if ctx.Err() != nil {
				st.TerminationReason = reasonTotalTimeout
			}
			convErr = fmt.Errorf("user simulator at turn %d: %w", turn, err)
			break
		}
		st.Turns = append(st.Turns, results.Turn{Role: "user", Text: next, At: time.Now(), Duration: time.Since(t1)})
		if reason := r.terminated(ctx, conv, st, "user", res); reason != "" {
			st.TerminationReason = reason
			break
		}
		msg = next
	}
	// Final and step evaluations judge what happened even when it ended early.
	res.Evaluations = append(res.Evaluations, compiled.Evaluate(ctx, evaluate.Input{Trace: trace, Step: stepIdx, Turn: -1, Scope: results.ScopeFinal, Env: evalEnv})...)
	res.Evaluations = append(res.Evaluations, compiled.Evaluate(ctx, evaluate.Input{Trace: trace, Step: stepIdx, Turn: -1, Scope: results.ScopeStep, Env: evalEnv})...)
	return convErr
}

// terminated returns the type of the first of conv's termination conditions
// that holds now that speaker spoke; a judge's tokens go to res's judge usage.
func (r *run) terminated(ctx context.Context, conv *scenario.Conversation, st *evaluate.StepTrace, speaker string, res *results.Job) string {
	reason, usage := converse.Terminated(ctx, r.cfg.Registries.Terminations, r.cfg.Judge, conv.TerminationConditions, st.Turns, speaker, st.Transcript)
	res.JudgeUsage = res.JudgeUsage.Add(usage)
	return reason
}

// addTurn adds an assistant turn, its reply, to a conversation's trace.
func addTurn(st *evaluate.StepTrace, reply Reply, d time.Duration) {
	st.Reply = reply.Text
	st.Actions = append(st.Actions, reply.Actions...)
	st.Usage = st.Usage.Add(reply.Usage)
	st.Turns = append(st.Turns, results.Turn{Role: "assistant", Text: reply.Text, At: time.Now(), Duration: d, Thought: reply.Thought,
		EndReason: reply.EndReason, Usage: reply.Usage, Actions: reply.Actions})
}
