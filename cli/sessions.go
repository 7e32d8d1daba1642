package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agenteval/agenteval/report"
	"github.com/agenteval/agenteval/results"
)

// sessionTrace is one session as ghx's session_export writes it
// (agent-profiler's SessionTrace): its events in order, grouped by turn,
// and a summary.
type sessionTrace struct {
	SessionID string         `json:"sessionId"`
	Events    []traceEvent   `json:"events"`
	Turns     []traceTurn    `json:"turns"`
	Summary   sessionSummary `json:"summary"`
}

type traceEvent struct {
	Type       string `json:"type"`
	Name       string `json:"name,omitempty"`
	Input      any    `json:"input,omitempty"`
	Output     any    `json:"output,omitempty"`
	DurationMS *int64 `json:"durationMs,omitempty"`
	Success    *bool  `json:"success,omitempty"`
	Error      string `json:"error,omitempty"`
	Content    string `json:"content,omitempty"`
	TokenCount *int   `json:"tokenCount,omitempty"`
	TurnNumber int    `json:"turnNumber,omitempty"`
	Timestamp  string `json:"timestamp,omitempty"`
}

type traceTurn struct {
	Number         int          `json:"number"`
	Events         []traceEvent `json:"events"`
	StartTimestamp string       `json:"startTimestamp"`
	EndTimestamp   string       `json:"endTimestamp"`
	DurationMS     int64        `json:"durationMs"`
}

type sessionSummary struct {
	TotalTurns     int            `json:"totalTurns"`
	TotalToolCalls int            `json:"totalToolCalls"`
	TotalTokens    tokenBreakdown `json:"totalTokens"`
	TotalDuration  float64        `json:"totalDuration"`
}

// tokenBreakdown is ghx's TokenBreakdown: input and output without the
// cache and the reasoning our usage counts within them.
type tokenBreakdown struct {
	Input      int `json:"input"`
	Output     int `json:"output"`
	Reasoning  int `json:"reasoning"`
	CacheRead  int `json:"cacheRead"`
	CacheWrite int `json:"cacheWrite"`
	Total      int `json:"total"`
	Active     int `json:"active"`
}

// exportSessions writes the session trace of every job of the results in
// out (results.jsonl) to out/sessions/SCENARIO/AGENT-iter-N.json, as ghx's
// session_export does (N is the 0-based run); a job whose transcript was
// not kept (--transcripts) gets its summary alone. It returns how many
// files it wrote.
func exportSessions(env *cliEnv, out string) (int, error) {
	file := filepath.Join(out, "results.jsonl")
	if _, err := os.Stat(file); errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	res, err := report.ReadFiles([]string{file}, report.Options{Redactor: env.redactor})
	if err != nil {
		return 0, err
	}
	n := 0
	for j, err := range res.Jobs() {
		if err != nil {
			return n, err
		}
		mode := j.Agent
		if mode == "" {
			mode = "agent"
		}
		dir := filepath.Join(out, "sessions", safeName(j.Scenario))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return n, err
		}
		b, err := json.MarshalIndent(traceOf(j), "", "  ")
		if err != nil {
			return n, err
		}
		name := fmt.Sprintf("%s-iter-%d.json", safeName(mode), j.Run-1)
		if err := os.WriteFile(filepath.Join(dir, name), env.redactor.Bytes(b), 0o644); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// safeName keeps a name from leaving the folder it is written in.
func safeName(s string) string {
	if s == "" || s == "." || s == ".." {
		return "_"
	}
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r < ' ' {
			return '_'
		}
		return r
	}, s)
}

// traceOf is a job's session trace: each assistant turn's reasoning (its
// thought: a coding-agent CLI's reasoning, as ghx's trace builder reads
// OpenCode's reasoning parts), its tool calls, then its text, then the
// turn's boundary. Tokens are not counted per block (0).
func traceOf(j *results.Job) sessionTrace {
	t := sessionTrace{SessionID: j.ID, Events: []traceEvent{}, Turns: []traceTurn{}}
	number := 0
	for _, turn := range j.Transcript {
		if turn.Role != "assistant" {
			continue
		}
		number++
		var events []traceEvent
		if turn.Thought != "" {
			var zero int64
			none := 0 // not counted per block
			events = append(events, traceEvent{Type: "reasoning", Content: turn.Thought, DurationMS: &zero, TokenCount: &none})
		}
		for _, a := range turn.Actions {
			d := a.End.Sub(a.Start).Milliseconds()
			ok := a.Error == ""
			events = append(events, traceEvent{Type: "tool_call", Name: a.Name, Input: a.Args, Output: a.Result,
				DurationMS: &d, Success: &ok, Error: a.Error})
			t.Summary.TotalToolCalls++
		}
		if turn.Text != "" {
			zero := 0 // not counted per block
			events = append(events, traceEvent{Type: "text_output", Content: turn.Text, TokenCount: &zero})
		}
		end := turn.At.Add(turn.Duration)
		events = append(events, traceEvent{Type: "turn_boundary", TurnNumber: number, Timestamp: end.UTC().Format(time.RFC3339Nano)})
		t.Events = append(t.Events, events...)
		t.Turns = append(t.Turns, traceTurn{Number: number, Events: events, StartTimestamp: turn.At.UTC().Format(time.RFC3339Nano),
			EndTimestamp: end.UTC().Format(time.RFC3339Nano), DurationMS: turn.Duration.Milliseconds()})
	}
	if number == 0 {
		number = j.Efficiency.Turns
		t.Summary.TotalToolCalls = j.Efficiency.ToolCalls.Total
	}
	u := j.Usage
	in, out := u.PromptTokens-u.CacheReadTokens-u.CacheWriteTokens, u.CompletionTokens-u.ReasoningTokens
	t.Summary.TotalTurns = number
	t.Summary.TotalTokens = tokenBreakdown{Input: in, Output: out, Reasoning: u.ReasoningTokens, CacheRead: u.CacheReadTokens,
		CacheWrite: u.CacheWriteTokens, Total: u.TotalTokens, Active: in + out + u.ReasoningTokens}
	t.Summary.TotalDuration = j.DurationMS
	return t
}
