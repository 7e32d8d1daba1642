package results

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/agenteval/agenteval/internal/jsonstr"
	"github.com/agenteval/agenteval/llm"
)

// AppendJob appends r as one JSON object, as the Writer writes it: byte
// for byte what encoding/json (with HTML escaping off) writes for it,
// without its reflection (results are the runner's hot path, and most of a
// cheap job's time went to encoding/json). Fields of rare or open-ended
// shape (checkpoints, transcripts, mock calls) still go through
// encoding/json. r.Record is written as it is.
func AppendJob(b []byte, r *Job) ([]byte, error) {
	return (*spans)(nil).appendJob(b, r)
}

// spans records where a record's encoding holds text that did not come from
// the encoder itself: string values, and whole values of open-ended shape
// (maps with arbitrary keys, JSON-encoded fields). Secrets can only be
// there, so the Writer masks only there (redact.Redactor.JSONIn), skipping
// the field names that are most of a record's bytes. A nil *spans records
// nothing.
type spans [][2]int

func (sp *spans) mark(start, end int) {
	if sp == nil || start == end {
		return
	}
	if n := len(*sp); n > 0 && (*sp)[n-1][1] == start {
		(*sp)[n-1][1] = end // adjacent: one span
		return
	}
	*sp = append(*sp, [2]int{start, end})
}

// str appends s as a JSON string and marks it.
func (sp *spans) str(b []byte, s string) []byte {
	start := len(b)
	b = jsonstr.Append(b, s)
	sp.mark(start, len(b))
	return b
}

// value appends v (appendValue) and marks it whole.
func (sp *spans) value(b []byte, v any) ([]byte, error) {
	start := len(b)
	b, err := appendValue(b, v)
	sp.mark(start, len(b))
	return b, err
}

func (sp *spans) appendJob(b []byte, r *Job) ([]byte, error) {
	b = append(b, `{"record":`...)
	b = sp.str(b, r.Record)
	b = append(b, `,"id":`...)
	b = sp.str(b, r.ID)
	b = append(b, `,"index":`...)
	b = strconv.AppendInt(b, r.Index, 10)
	b = append(b, `,"scenario":`...)
	b = sp.str(b, r.Scenario)
	if r.ScenarioName != "" {
		b = append(b, `,"scenario_name":`...)
		b = sp.str(b, r.ScenarioName)
	}
	if r.Matrix != "" {
		b = append(b, `,"matrix":`...)
		b = sp.str(b, r.Matrix)
	}
	if r.Combination != "" {
		b = append(b, `,"combination":`...)
		b = sp.str(b, r.Combination)
	}
	var err error
	if len(r.Params) > 0 {
		b = append(b, `,"params":`...)
		if b, err = sp.value(b, r.Params); err != nil {
			return b, err
		}
	}
	b = append(b, `,"run":`...)
	b = strconv.AppendInt(b, int64(r.Run), 10)
	b = append(b, `,"attempts":`...)
	b = strconv.AppendInt(b, int64(r.Attempts), 10)
	b = append(b, `,"completed":`...)
	b = strconv.AppendBool(b, r.Completed)
	b = append(b, `,"passed":`...)
	b = strconv.AppendBool(b, r.Passed)
	b = append(b, `,"score":`...)
	b = appendFloat(b, r.Score)
	b = append(b, `,"reason":`...)
	b = sp.str(b, r.Reason)
	if r.Cause != "" {
		b = append(b, `,"cause":`...)
		b = sp.str(b, string(r.Cause))
	}
	b = append(b, `,"strategy":`...)
	b = sp.str(b, r.Strategy)
	b = append(b, `,"evaluations":`...)
	if r.Evaluations == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range r.Evaluations {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = sp.appendResult(b, &r.Evaluations[i]); err != nil {
				return b, err
			}
		}
		b = append(b, ']')
	}
	if len(r.Checkpoints) > 0 {
		if b, err = sp.appendJSON(b, `,"checkpoints":`, r.Checkpoints); err != nil {
			return b, err
		}
	}
	if len(r.TerminationReasons) > 0 {
		b = sp.strings(append(b, `,"termination_reasons":`...), r.TerminationReasons)
	}
	if len(r.Transcript) > 0 {
		if b, err = sp.appendJSON(b, `,"transcript":`, r.Transcript); err != nil {
			return b, err
		}
	}
	b = append(b, `,"started":`...)
	b = appendTime(b, r.Started)
	b = append(b, `,"duration_ms":`...)
	b = appendFloat(b, r.DurationMS)
	if r.AgentStartupMS != 0 {
		b = appendFloat(append(b, `,"agent_startup_ms":`...), r.AgentStartupMS)
	}
	b = append(b, `,"usage":`...)
	b = appendUsage(b, r.Usage)
	if r.UserUsage != (llm.Usage{}) {
		b = appendUsage(append(b, `,"user_usage":`...), r.UserUsage)
	}
	if r.JudgeUsage != (llm.Usage{}) {
		b = appendUsage(append(b, `,"judge_usage":`...), r.JudgeUsage)
	}
	if r.Cost != nil {
		b = sp.cost(append(b, `,"cost":`...), r.Cost)
	}
	// issue 16: the job's agent and model (suites) and its efficiency
	// (turns, tool calls by category).
	if r.Agent != "" {
		b = append(b, `,"agent":`...)
		b = sp.str(b, r.Agent)
	}
	if r.Model != "" {
		b = append(b, `,"model":`...)
		b = sp.str(b, r.Model)
	}
	if e := &r.Efficiency; e.Turns != 0 || e.ToolCalls.Total != 0 || e.ToolCalls.Failed != 0 || len(e.ToolCalls.ByCategory) > 0 {
		b = append(b, `,"efficiency":{"turns":`...)
		b = strconv.AppendInt(b, int64(e.Turns), 10)
		b = append(b, `,"tool_calls":{"total":`...)
		b = strconv.AppendInt(b, int64(e.ToolCalls.Total), 10)
		b = append(b, `,"failed":`...)
		b = strconv.AppendInt(b, int64(e.ToolCalls.Failed), 10)
		if len(e.ToolCalls.ByCategory) > 0 {
			b = sp.counts(append(b, `,"by_category":`...), e.ToolCalls.ByCategory)
		}
		b = append(b, "}}"...)
	}
	if len(r.MockCalls) > 0 {
		if b, err = sp.appendJSON(b, `,"mock_calls":`, r.MockCalls); err != nil {
			return b, err
		}
	}
	if r.Error != "" {
		b = append(b, `,"error":`...)
		b = sp.str(b, r.Error)
	}
	if r.Environment != "" {
		b = append(b, `,"environment":`...)
		b = sp.str(b, r.Environment)
	}
	if len(r.Notes) > 0 {
		b = sp.strings(append(b, `,"notes":`...), r.Notes)
	}
	if len(r.AttemptLog) > 0 {
		if b, err = sp.appendJSON(b, `,"attempt_log":`, r.AttemptLog); err != nil {
			return b, err
		}
	}
	if len(r.CodeSteps) > 0 {
		if b, err = sp.appendJSON(b, `,"code_steps":`, r.CodeSteps); err != nil {
			return b, err
		}
	}
	if r.AgentLog != "" {
		b = append(b, `,"agent_log":`...)
		b = sp.str(b, r.AgentLog)
	}
	if r.Crash != "" {
		b = append(b, `,"crash":`...)
		b = sp.str(b, r.Crash)
	}
	return append(b, '}'), nil
}

// strings appends a JSON array of strings and marks it whole.
func (sp *spans) strings(b []byte, ss []string) []byte {
	start := len(b)
	b = appendStrings(b, ss)
	sp.mark(start, len(b))
	return b
}

// appendStrings appends a JSON array of strings.
func appendStrings(b []byte, ss []string) []byte {
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonstr.Append(b, s)
	}
	return append(b, ']')
}

func (sp *spans) appendResult(b []byte, e *Evaluation) ([]byte, error) {
	b = append(b, `{"type":`...)
	b = sp.str(b, e.Type)
	if e.Description != "" {
		b = append(b, `,"description":`...)
		b = sp.str(b, e.Description)
	}
	b = append(b, `,"scope":`...)
	b = sp.str(b, string(e.Scope))
	b = append(b, `,"step":`...)
	b = strconv.AppendInt(b, int64(e.Step), 10)
	b = append(b, `,"turn":`...)
	b = strconv.AppendInt(b, int64(e.Turn), 10)
	b = append(b, `,"passed":`...)
	b = strconv.AppendBool(b, e.Passed)
	b = append(b, `,"score":`...)
	b = appendFloat(b, e.Score)
	b = append(b, `,"message":`...)
	b = sp.str(b, e.Message)
	if len(e.Details) > 0 {
		b = append(b, `,"details":`...)
		var err error
		if b, err = sp.value(b, e.Details); err != nil {
			return b, err
		}
	}
	b = append(b, `,"weight":`...)
	b = appendFloat(b, e.Weight)
	if e.Critical {
		b = append(b, `,"critical":true`...)
	}
	if e.Error != "" {
		b = append(b, `,"error":`...)
		b = sp.str(b, e.Error)
	}
	if e.Usage != (llm.Usage{}) {
		b = appendUsage(append(b, `,"usage":`...), e.Usage)
	}
	return append(b, '}'), nil
}

// counts appends c (appendCounts) and marks it whole: its keys are names
// from outside (tool categories).
func (sp *spans) counts(b []byte, c Counts) []byte {
	start := len(b)
	b = appendCounts(b, c)
	sp.mark(start, len(b))
	return b
}

// appendCounts appends counts as a JSON object, in order.
func appendCounts(b []byte, c Counts) []byte {
	b = append(b, '{')
	for i, x := range c {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonstr.Append(b, x.Name)
		b = append(b, ':')
		b = strconv.AppendInt(b, int64(x.N), 10)
	}
	return append(b, '}')
}

func appendUsage(b []byte, u llm.Usage) []byte {
	b = append(b, `{"prompt_tokens":`...)
	b = strconv.AppendInt(b, int64(u.PromptTokens), 10)
	b = append(b, `,"completion_tokens":`...)
	b = strconv.AppendInt(b, int64(u.CompletionTokens), 10)
	b = append(b, `,"total_tokens":`...)
	b = strconv.AppendInt(b, int64(u.TotalTokens), 10)
	if u.ReasoningTokens != 0 {
		b = append(b, `,"reasoning_tokens":`...)
		b = strconv.AppendInt(b, int64(u.ReasoningTokens), 10)
	}
	if u.CacheReadTokens != 0 {
		b = append(b, `,"cache_read_tokens":`...)
		b = strconv.AppendInt(b, int64(u.CacheReadTokens), 10)
	}
	if u.CacheWriteTokens != 0 {
		b = append(b, `,"cache_write_tokens":`...)
		b = strconv.AppendInt(b, int64(u.CacheWriteTokens), 10)
	}
	if u.CostUSD != 0 {
		b = append(b, `,"cost_usd":`...)
		b = appendFloat(b, u.CostUSD)
	}
	return append(b, '}')
}

// cost appends c; unknown amounts are null. Its strings (model names,
// dates) are masked as every other string.
func (sp *spans) cost(b []byte, c *Cost) []byte {
	for _, f := range []struct {
		key string
		v   *float64
	}{{`{"usd":`, c.USD}, {`,"agent_usd":`, c.Agent}, {`,"user_usd":`, c.User}, {`,"judge_usd":`, c.Judge}} {
		b = append(b, f.key...)
		if f.v == nil {
			b = append(b, "null"...)
		} else {
			b = appendFloat(b, *f.v)
		}
	}
	if len(c.Unpriced) > 0 {
		b = sp.strings(append(b, `,"unpriced":`...), c.Unpriced)
	}
	if len(c.AsOf) > 0 {
		b = sp.strings(append(b, `,"as_of":`...), c.AsOf)
	}
	return append(b, '}')
}

// appendJSON appends key and v encoded by encoding/json, and marks v whole.
func (sp *spans) appendJSON(b []byte, key string, v any) ([]byte, error) {
	enc, err := marshalNoEscape(v)
	if err != nil {
		return b, err
	}
	b = append(b, key...)
	start := len(b)
	b = append(b, enc...)
	sp.mark(start, len(b))
	return b, nil
}

func marshalNoEscape(v any) ([]byte, error) {
	var buf byteBuffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.b[:len(buf.b)-1], nil // Encode adds a newline
}

type byteBuffer struct{ b []byte }

func (w *byteBuffer) Write(p []byte) (int, error) { w.b = append(w.b, p...); return len(p), nil }

// appendValue appends plain JSON data (maps with sorted keys, slices,
// strings, numbers, booleans, nil) and falls back to encoding/json for
// anything else.
func appendValue(b []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case string:
		return jsonstr.Append(b, x), nil
	case bool:
		return strconv.AppendBool(b, x), nil
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			break // encoding/json reports the error
		}
		return appendFloat(b, x), nil
	case int:
		return strconv.AppendInt(b, int64(x), 10), nil
	case int64:
		return strconv.AppendInt(b, x, 10), nil
	case json.Number:
		if x == "" {
			return append(b, '0'), nil
		}
		if _, err := strconv.ParseFloat(string(x), 64); err == nil && isJSONNumber(string(x)) {
			return append(b, x...), nil
		}
	case []any:
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = appendValue(b, e); err != nil {
				return b, err
			}
		}
		return append(b, ']'), nil
	case []string:
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsonstr.Append(b, e)
		}
		return append(b, ']'), nil
	case map[string]any:
		// The entries of small maps (an evaluation's details) are taken in
		// one pass and sorted by key on the stack: no allocation, no second
		// lookup per key.
		var small [16]entry
		entries := small[:0]
		if len(x) > len(small) {
			entries = make([]entry, 0, len(x))
		}
		for k, v := range x {
			entries = append(entries, entry{k, v})
		}
		if len(entries) > 1 {
			slices.SortFunc(entries, func(a, b entry) int { return strings.Compare(a.key, b.key) })
		}
		b = append(b, '{')
		for i := range entries {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsonstr.Append(b, entries[i].key)
			b = append(b, ':')
			var err error
			if b, err = appendValue(b, entries[i].value); err != nil {
				return b, err
			}
		}
		return append(b, '}'), nil
	}
	enc, err := marshalNoEscape(v)
	if err != nil {
		return b, err
	}
	return append(b, enc...), nil
}

// entry is one key and value of a map being encoded.
type entry struct {
	key   string
	value any
}

// isJSONNumber reports whether s is a number in JSON's grammar (json.Number
// may hold other text, which encoding/json rejects).
func isJSONNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	if i >= len(s) {
		return false
	}
	if s[i] == '0' {
		i++
	} else if s[i] >= '1' && s[i] <= '9' {
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	} else {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if i >= len(s) || s[i] < '0' || s[i] > '9' {
			return false
		}
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if i >= len(s) || s[i] < '0' || s[i] > '9' {
			return false
		}
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	}
	return i == len(s)
}

// appendFloat formats like encoding/json: shortest representation, 'e'
// notation only for very small or large magnitudes.
func appendFloat(b []byte, f float64) []byte {
	if f == math.Trunc(f) && f > -1e15 && f < 1e15 && !math.Signbit(f) {
		return strconv.AppendInt(b, int64(f), 10) // scores and weights: 0, 1 (what 'f' writes, faster)
	}
	abs := math.Abs(f)
	fmtByte := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		fmtByte = 'e'
	}
	b = strconv.AppendFloat(b, f, fmtByte, -1, 64)
	if fmtByte == 'e' {
		// clean up e-09 to e-9, as encoding/json does
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

func appendTime(b []byte, t time.Time) []byte {
	b = append(b, '"')
	b = t.AppendFormat(b, time.RFC3339Nano)
	return append(b, '"')
}
