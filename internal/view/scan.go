package view

import (
	"bytes"
	"errors"
	"strconv"

	"github.com/buger/jsonparser"

	"github.com/agenteval/agenteval/results"
)

// errSyntax is a record line the scanner cannot read.
var errSyntax = errors.New("not a JSON object")

// scanRecord reads the top-level fields indexing needs from one record
// line with jsonparser (as report's JUnit does), skipping every other value
// (transcripts, details) without decoding it: a job's line is mostly text
// nobody filters by, and decoding it all made indexing ten times slower.
// Strings are decoded (escapes resolved); evaluations and checkpoints are
// kept raw for why.
func scanRecord(line []byte, rec *lineRecord) error {
	if t := bytes.TrimSpace(line); len(t) == 0 || t[0] != '{' {
		return errSyntax
	}
	return jsonparser.ObjectEach(line, func(key, v []byte, vt jsonparser.ValueType, _ int) error {
		var err error
		switch string(key) {
		case "record":
			rec.Record, err = str(v, vt)
		case "run_id":
			rec.RunID, err = str(v, vt)
		case "id":
			rec.ID, err = str(v, vt)
		case "index":
			rec.Index, err = strconv.ParseInt(string(v), 10, 64)
		case "scenario":
			rec.Scenario, err = str(v, vt)
		case "agent":
			rec.Agent, err = str(v, vt)
		case "model":
			rec.Model, err = str(v, vt)
		case "completed":
			rec.Completed = vt == jsonparser.Boolean && string(v) == "true"
		case "passed":
			rec.Passed = vt == jsonparser.Boolean && string(v) == "true"
		case "duration_ms":
			rec.DurationMS, err = strconv.ParseFloat(string(v), 64)
		case "reason":
			rec.Reason, err = str(v, vt)
		case "cause":
			var c string
			c, err = str(v, vt)
			rec.Cause = results.Cause(c)
		case "error":
			rec.Error, err = str(v, vt)
		case "combination":
			rec.Combination, err = str(v, vt)
		case "params":
			if vt == jsonparser.Object {
				rec.Params = v
			}
		case "evaluations":
			rec.Evals = v
		case "checkpoints":
			rec.Checks = v
		}
		return err
	})
}

// str decodes a JSON string value (null is "").
func str(v []byte, vt jsonparser.ValueType) (string, error) {
	switch vt {
	case jsonparser.Null:
		return "", nil
	case jsonparser.String:
		return jsonparser.ParseString(v)
	}
	return "", errSyntax
}
