package view

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"

	"github.com/agenteval/agenteval/results"
)

// errSyntax is a record line the scanner cannot read.
var errSyntax = errors.New("not a JSON object")

// scanRecord reads the top-level fields indexing needs from one record
// line, skipping every other value (transcripts, details) without decoding
// it: a job's line is mostly text nobody filters by, and decoding it all
// made indexing ten times slower. Strings are decoded (escapes resolved);
// evaluations and checkpoints are kept raw for why.
func scanRecord(line []byte, rec *lineRecord) error {
	i := skipSpace(line, 0)
	if i >= len(line) || line[i] != '{' {
		return errSyntax
	}
	i++
	for {
		i = skipSpace(line, i)
		if i < len(line) && line[i] == '}' {
			return nil
		}
		if i >= len(line) || line[i] != '"' {
			return errSyntax
		}
		kEnd, err := skipString(line, i)
		if err != nil {
			return err
		}
		key := line[i+1 : kEnd-1]
		i = skipSpace(line, kEnd)
		if i >= len(line) || line[i] != ':' {
			return errSyntax
		}
		i = skipSpace(line, i+1)
		vEnd, err := skipValue(line, i)
		if err != nil {
			return err
		}
		v := line[i:vEnd]
		switch string(key) {
		case "record":
			rec.Record, err = str(v)
		case "run_id":
			rec.RunID, err = str(v)
		case "id":
			rec.ID, err = str(v)
		case "index":
			rec.Index, err = strconv.ParseInt(string(v), 10, 64)
		case "scenario":
			rec.Scenario, err = str(v)
		case "agent":
			rec.Agent, err = str(v)
		case "model":
			rec.Model, err = str(v)
		case "completed":
			rec.Completed = string(v) == "true"
		case "passed":
			rec.Passed = string(v) == "true"
		case "duration_ms":
			rec.DurationMS, err = strconv.ParseFloat(string(v), 64)
		case "reason":
			rec.Reason, err = str(v)
		case "cause":
			var c string
			c, err = str(v)
			rec.Cause = results.Cause(c)
		case "error":
			rec.Error, err = str(v)
		case "evaluations":
			rec.Evals = v
		case "checkpoints":
			rec.Checks = v
		}
		if err != nil {
			return err
		}
		i = skipSpace(line, vEnd)
		if i < len(line) && line[i] == ',' {
			i++
			continue
		}
		if i < len(line) && line[i] == '}' {
			return nil
		}
		return errSyntax
	}
}

// str decodes a JSON string value (null is "").
func str(v []byte) (string, error) {
	if string(v) == "null" {
		return "", nil
	}
	if len(v) < 2 || v[0] != '"' {
		return "", errSyntax
	}
	if bytes.IndexByte(v, '\\') < 0 {
		return string(v[1 : len(v)-1]), nil
	}
	var s string
	err := json.Unmarshal(v, &s)
	return s, err
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index just past the string that opens at i.
func skipString(b []byte, i int) (int, error) {
	j := i + 1
	for {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return 0, errSyntax
		}
		j += k
		// The quote is escaped when an odd number of backslashes precede it.
		n := 0
		for p := j - 1; p > i && b[p] == '\\'; p-- {
			n++
		}
		j++
		if n%2 == 0 {
			return j, nil
		}
	}
}

// skipValue returns the index just past the value that starts at i.
func skipValue(b []byte, i int) (int, error) {
	if i >= len(b) {
		return 0, errSyntax
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				end, err := skipString(b, j)
				if err != nil {
					return 0, err
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1, nil
				}
			}
		}
		return 0, errSyntax
	}
	j := i
	for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' && b[j] != ' ' {
		j++
	}
	if j == i {
		return 0, errSyntax
	}
	return j, nil
}
