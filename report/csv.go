package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/agenteval/agenteval/results"
)

// csvHeader are the columns of ghx's results.csv (agent-profiler's
// csv-exporter), in its order.
var csvHeader = []string{"run_id", "scenario_id", "mode", "model", "iteration", "success", "timing_wall_ms",
	"tokens_input", "tokens_output", "tokens_reasoning", "tokens_cache_read", "tokens_cache_write", "tokens_total", "tokens_active",
	"tool_calls_total", "tool_calls_failed", "tool_calls_error_rate", "cost_total_usd", "cost_input_usd", "cost_output_usd",
	"cost_reasoning_usd", "checkpoints_passed", "checkpoints_total", "output_valid", "provider", "session_id", "agent_turns",
	"completion_reason"}

// writeCSV writes one row per job with ghx's results.csv columns: the
// mode is the suite's agent, the iteration the 0-based run; tokens in
// ghx's categories (input and output without the cache reads and writes
// and the reasoning our usage counts within them; active is input, output
// and reasoning); the cost is the job's agent cost (the CLI's own figure
// when it reported one, else the price table's), which neither the CLIs
// nor we split by input, output and reasoning (those columns stay empty;
// ghx's OpenCode provider writes 0 in all four); output_valid is whether
// every evaluation passed; the session id is the job's id; the completion
// reason is stop, timeout (a step or job timeout), tool_limit (the agent's
// last reply ended at the CLI's turn limit) or error (a job that did not
// complete). Jobs are streamed from the inputs.
func writeCSV(w io.Writer, r *Results) error {
	s := r.Summary()
	runID := strings.Join(s.RunIDs, "+")
	provider := "agenteval"
	if typ, _, _ := strings.Cut(s.Agent, ":"); typ != "" {
		provider = typ
	}
	cw := csv.NewWriter(w)
	if err := cw.Write(csvHeader); err != nil {
		return fmt.Errorf("write csv: %w", err)
	}
	for j, err := range r.Jobs() {
		if err != nil {
			return fmt.Errorf("write csv: %w", err)
		}
		if err := cw.Write(csvRow(runID, provider, j)); err != nil {
			return fmt.Errorf("write csv: %w", err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("write csv: %w", err)
	}
	return nil
}

func csvRow(runID, provider string, j *results.Job) []string {
	u := j.Usage
	input := u.PromptTokens - u.CacheReadTokens - u.CacheWriteTokens
	output := u.CompletionTokens - u.ReasoningTokens
	active := input + output + u.ReasoningTokens
	calls, failed := j.Efficiency.ToolCalls.Total, j.Efficiency.ToolCalls.Failed
	rate := 0.0
	if calls > 0 {
		rate = float64(failed) / float64(calls)
	}
	cost := ""
	if j.Cost != nil && j.Cost.Agent != nil {
		cost = num(*j.Cost.Agent)
	}
	passed := 0
	for _, c := range j.Checkpoints {
		if c.Passed {
			passed++
		}
	}
	valid := j.Completed
	for _, e := range j.Evaluations {
		valid = valid && e.Passed
	}
	reason := "stop"
	switch {
	case j.Cause == results.CauseTimeout:
		reason = "timeout"
	case turnLimited(lastEndReason(j)):
		reason = "tool_limit"
	case !j.Completed:
		reason = "error"
	}
	mode := j.Agent
	if mode == "" {
		mode = provider
	}
	return []string{runID, j.Scenario, mode, j.Model, strconv.Itoa(j.Run - 1), strconv.FormatBool(j.Passed), num(j.DurationMS),
		strconv.Itoa(input), strconv.Itoa(output), strconv.Itoa(u.ReasoningTokens), strconv.Itoa(u.CacheReadTokens),
		strconv.Itoa(u.CacheWriteTokens), strconv.Itoa(u.TotalTokens), strconv.Itoa(active),
		strconv.Itoa(calls), strconv.Itoa(failed), num(rate), cost, "", "", "",
		strconv.Itoa(passed), strconv.Itoa(len(j.Checkpoints)), strconv.FormatBool(valid), provider, j.ID,
		strconv.Itoa(j.Efficiency.Turns), reason}
}

// num is a number as JavaScript's String(number) writes it for the values
// ghx's CSV holds: no exponent, no trailing zeros.
func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// turnLimited reports whether a reply's end reason is a CLI's turn limit:
// Claude Code's error_max_turns, Gemini CLI's FatalTurnLimitedError.
func turnLimited(reason string) bool {
	return reason == "error_max_turns" || reason == "FatalTurnLimitedError"
}
