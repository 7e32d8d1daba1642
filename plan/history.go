package plan

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/agenteval/agenteval/internal/jsonl"
	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/redact"
	"github.com/agenteval/agenteval/results"
)

// History is what past results say about jobs: the mean agent tokens and
// duration of each job key (source/combination) and of each scenario.
type History struct {
	byKey, byScenario map[string]*observed
}

// observed sums one key's completed jobs.
type observed struct {
	n             int64
	input, output int64
	ms            float64
}

// observation is a mean a forecast uses.
type observation struct {
	tokens Tokens
	ms     float64
}

// NewHistory returns an empty History; Read adds results files to it.
func NewHistory() *History {
	return &History{byKey: map[string]*observed{}, byScenario: map[string]*observed{}}
}

// Read adds the job records of one results file (or stream) to h, read
// with the results package's streaming reader. Only completed jobs count:
// an incomplete job's time and tokens say little about a real one. name
// labels r in errors.
func (h *History) Read(name string, r io.Reader) error {
	lr := jsonl.NewReader(r, 0, 0, redact.New())
	var rec struct {
		Record     string    `json:"record"`
		ID         string    `json:"id"`
		Scenario   string    `json:"scenario"`
		Completed  bool      `json:"completed"`
		DurationMS float64   `json:"duration_ms"`
		Usage      llm.Usage `json:"usage"`
	}
	records := 0
	for {
		line, _, err := lr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if errors.Is(err, jsonl.ErrLineTooLong) {
			continue
		}
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		rec.Record, rec.ID, rec.Scenario, rec.Completed, rec.DurationMS, rec.Usage = "", "", "", false, 0, llm.Usage{}
		if json.Unmarshal(line, &rec) != nil {
			continue // a torn line says nothing
		}
		if rec.Record != "" {
			records++
		}
		if rec.Record != results.RecordJob {
			continue
		}
		if !rec.Completed {
			continue // an incomplete job's time and tokens say little about a real one
		}
		in, out := int64(rec.Usage.PromptTokens), int64(rec.Usage.CompletionTokens)
		if in == 0 && out == 0 {
			in = int64(rec.Usage.TotalTokens) // usage without the split counts as prompt tokens
		}
		key, _ := jobKey(rec.ID)
		for _, o := range []*observed{h.at(h.byKey, key), h.at(h.byScenario, rec.Scenario)} {
			o.n++
			o.input += in
			o.output += out
			o.ms += rec.DurationMS
		}
	}
	if records == 0 {
		return fmt.Errorf("%s holds no results record: want the results.jsonl of a run", name)
	}
	return nil
}

func (h *History) at(m map[string]*observed, k string) *observed {
	o := m[k]
	if o == nil {
		o = &observed{}
		m[k] = o
	}
	return o
}

// lookup returns the mean of the job key's past jobs, else of the
// scenario's.
func (h *History) lookup(key, scenarioID string) (observation, bool) {
	if h == nil {
		return observation{}, false
	}
	o := h.byKey[key]
	if o == nil || o.n == 0 {
		o = h.byScenario[scenarioID]
	}
	if o == nil || o.n == 0 {
		return observation{}, false
	}
	return observation{tokens: Tokens{o.input / o.n, o.output / o.n}, ms: o.ms / float64(o.n)}, true
}
