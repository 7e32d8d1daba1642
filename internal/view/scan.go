package view

import (
	"github.com/buger/jsonparser"

	"github.com/agenteval/agenteval/internal/jsonl"
	"github.com/agenteval/agenteval/results"
)

// scanRecord reads the top-level fields indexing needs from one record
// line with jsonl.EachField (report reads its lines the same way),
// skipping every other value (transcripts, details) without decoding it:
// a job's line is mostly text nobody filters by, and decoding it all made
// indexing ten times slower. Strings are decoded (escapes resolved); a
// field of another kind than encoding/json would accept is an error;
// evaluations and checkpoints are kept raw for why.
func scanRecord(line []byte, rec *lineRecord) error {
	return jsonl.EachField(line, func(key []byte, v jsonl.Value) error {
		var err error
		switch string(key) {
		case "record":
			rec.Record, err = v.String()
		case "run_id":
			rec.RunID, err = v.String()
		case "id":
			rec.ID, err = v.String()
		case "index":
			rec.Index, err = v.Int()
		case "scenario":
			rec.Scenario, err = v.String()
		case "agent":
			rec.Agent, err = v.String()
		case "model":
			rec.Model, err = v.String()
		case "completed":
			rec.Completed, err = v.Bool()
		case "passed":
			rec.Passed, err = v.Bool()
		case "duration_ms":
			rec.DurationMS, err = v.Float()
		case "reason":
			rec.Reason, err = v.String()
		case "cause":
			var c string
			c, err = v.String()
			rec.Cause = results.Cause(c)
		case "error":
			rec.Error, err = v.String()
		case "combination":
			rec.Combination, err = v.String()
		case "params":
			if v.Kind == jsonparser.Object {
				rec.Params = v.Raw
			}
		case "evaluations":
			rec.Evals = v.Raw
		case "checkpoints":
			rec.Checks = v.Raw
		}
		return err
	})
}
