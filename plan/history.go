package plan

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/agenteval/agenteval/internal/jsonl"
	"github.com/agenteval/agenteval/internal/keytable"
	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/redact"
	"github.com/agenteval/agenteval/results"
)

// History is what past results say about jobs: the mean agent tokens and
// duration of each job key (source/combination) and of each scenario.
//
// Memory is a fixed amount per job key (about 80 bytes: its text, its sums
// and 4 to 8 bytes in a key table), never a record's text; reading costs a
// small part of decoding every record (see Read).
type History struct {
	keys       keytable.Table // job key → byKey
	byKey      []keyed
	byScenario map[string]*observed
}

// keyed is one job key's sums.
type keyed struct {
	key string
	observed
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
	return &History{byScenario: map[string]*observed{}}
}

// histRecord is what History reads of a record line.
type histRecord struct {
	Record     string    `json:"record"`
	ID         string    `json:"id"`
	Scenario   string    `json:"scenario"`
	Completed  bool      `json:"completed"`
	DurationMS float64   `json:"duration_ms"`
	Usage      llm.Usage `json:"usage"`
}

// Read adds the job records of one results file (or stream) to h, read
// with the results package's streaming reader. Only completed jobs count:
// an incomplete job's time and tokens say little about a real one. name
// labels r in errors.
//
// A line is read as encoding/json would decode those fields (a line it
// refuses, such as a torn one, says nothing), but by picking the fields
// out of the line (internal/jsonl.EachField) rather than decoding all of
// it: the values it skips (transcripts, evaluations) are not validated, nor
// is a comma or a brace after the last field, so a line that is not JSON
// only there, which no writer makes, still counts. A line not read plainly (a field of another kind, a
// repeated field, a key encoding/json would fold onto a field) is left to
// encoding/json.
func (h *History) Read(name string, r io.Reader) error {
	lr := jsonl.NewReader(r, 0, 0, redact.New())
	var rec histRecord
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
		if decodeHistRecord(line, &rec) != nil {
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
		h.byKeyAt(key).add(in, out, rec.DurationMS)
		if h.byScenario == nil {
			h.byScenario = map[string]*observed{}
		}
		s := h.byScenario[rec.Scenario]
		if s == nil {
			s = &observed{}
			h.byScenario[rec.Scenario] = s
		}
		s.add(in, out, rec.DurationMS)
	}
	if records == 0 {
		return fmt.Errorf("%s holds no results record: want the results.jsonl of a run", name)
	}
	return nil
}

func (o *observed) add(in, out int64, ms float64) {
	o.n++
	o.input += in
	o.output += out
	o.ms += ms
}

// keyOf is the key of h.byKey[i].
func (h *History) keyOf(i int32) string { return h.byKey[i].key }

// byKeyAt returns the sums of key, added when new.
func (h *History) byKeyAt(key string) *observed {
	i, ok := h.keys.Find(key, h.keyOf)
	if !ok {
		// A copy: key is part of a record's id, which it would keep.
		h.byKey = append(h.byKey, keyed{key: strings.Clone(key)})
		i = int32(len(h.byKey) - 1)
		h.keys.Add(i, h.keyOf)
	}
	return &h.byKey[i].observed
}

// decodeHistRecord reads line into rec (reset first) as json.Unmarshal
// would: by its fields (scanHistRecord) when it can, else by
// encoding/json, whose verdict on a line stands.
func decodeHistRecord(line []byte, rec *histRecord) error {
	*rec = histRecord{}
	if scanHistRecord(line, rec) == nil {
		return nil
	}
	*rec = histRecord{}
	return json.Unmarshal(line, rec)
}

// scanHistRecord fills rec from line's fields, or fails for a line it
// does not read plainly: a field of another kind, a repeated field, a key
// encoding/json would match to a field although it is not spelled the
// same (it folds case), or a line that is not an object.
func scanHistRecord(line []byte, rec *histRecord) error {
	return jsonl.Fields(line, func(key []byte, v jsonl.Value) (uint64, error) {
		var err error
		var bit uint64
		switch string(key) {
		case "record":
			bit = 1
			rec.Record, err = v.String()
		case "id":
			bit = 2
			rec.ID, err = v.String()
		case "scenario":
			bit = 4
			rec.Scenario, err = v.String()
		case "completed":
			bit = 8
			rec.Completed, err = v.Bool()
		case "duration_ms":
			bit = 16
			rec.DurationMS, err = v.Float()
		case "usage":
			bit = 32
			err = jsonl.Usage(v, &rec.Usage)
		default:
			return 0, nil
		}
		return bit, err
	})
}

// lookup returns the mean of the job key's past jobs, else of the
// scenario's.
func (h *History) lookup(key, scenarioID string) (observation, bool) {
	if h == nil {
		return observation{}, false
	}
	var o *observed
	if i, ok := h.keys.Find(key, h.keyOf); ok {
		o = &h.byKey[i].observed
	}
	if o == nil || o.n == 0 {
		o = h.byScenario[scenarioID] // nil map: none
	}
	if o == nil || o.n == 0 {
		return observation{}, false
	}
	return observation{tokens: Tokens{o.input / o.n, o.output / o.n}, ms: o.ms / float64(o.n)}, true
}
