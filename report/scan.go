package report

import (
	"bytes"
	"encoding/json"

	"github.com/agenteval/agenteval/internal/jsonl"
	"github.com/agenteval/agenteval/results"
	"github.com/buger/jsonparser"
)

// decode reads the statistics fields of a record line into r: a job
// record's fields picked out of the line by jsonl.EachField without
// decoding the rest (its transcript, evaluation messages and details), which
// costs a small part of decoding it; any other line, or one it does not
// read plainly, with encoding/json (the error is encoding/json's). Either
// way r is what encoding/json would decode from a valid line. The values
// skipped are not validated (checking them cost a third of the first
// pass): a line that is not JSON only inside its transcript or details,
// which no writer makes, is read by its fields instead of skipped.
func (r *lineRecord) decode(line []byte) error {
	var fast lineRecord
	if err := scanRecord(line, &fast); err == nil && fast.Record == results.RecordJob {
		*r = fast
		return nil
	}
	return json.Unmarshal(line, r)
}

// Record fields scanRecord reads, as bits of which it has seen.
const (
	fRecord = 1 << iota
	fRunID
	fTotalJobs
	fShard
	fShardJobs
	fAgent
	fSources
	fSeed
	fStarted
	fParams
	fEstimate
	fID
	fIndex
	fScenario
	fScenarioName
	fMatrix
	fCombination
	fRun
	fAttempts
	fCompleted
	fPassed
	fEvaluations
	fTerminationReasons
	fDurationMS
	fUsage
	fCost
	fModel
	fEfficiency
	// caseJob's besides.
	fScore
	fReason
	fStrategy
	fCause
)

// scanRecord fills rec from line's fields (see decode); a plan's
// estimate is left to encoding/json.
func scanRecord(line []byte, rec *lineRecord) error {
	return jsonl.Fields(line, func(key []byte, v jsonl.Value) (uint64, error) {
		var err error
		var bit uint64
		switch string(key) {
		case "record":
			bit = fRecord
			rec.Record, err = v.String()
		case "run_id":
			bit = fRunID
			rec.RunID, err = v.String()
		case "total_jobs":
			bit = fTotalJobs
			rec.TotalJobs, err = v.Int()
		case "shard":
			bit = fShard
			rec.Shard, err = v.String()
		case "shard_jobs":
			bit = fShardJobs
			rec.ShardJobs, err = v.Int()
		case "agent":
			bit = fAgent
			rec.Agent, err = v.String()
		case "sources":
			bit = fSources
			rec.Sources, err = v.Strings(nil)
		case "seed":
			bit = fSeed
			rec.Seed, err = v.Int()
		case "started":
			bit = fStarted
			rec.Started = raw(v)
		case "params":
			bit = fParams
			rec.Params = raw(v)
		case "estimate":
			bit = fEstimate
			if !v.Null() {
				err = jsonl.ErrPlain
			}
		case "id":
			bit = fID
			rec.ID, err = v.String()
		case "index":
			bit = fIndex
			rec.Index, err = v.Int()
		case "scenario":
			bit = fScenario
			rec.Scenario, err = v.String()
		case "scenario_name":
			bit = fScenarioName
			rec.ScenarioName, err = v.String()
		case "matrix":
			bit = fMatrix
			rec.Matrix, err = v.String()
		case "combination":
			bit = fCombination
			rec.Combination, err = v.String()
		case "run":
			bit = fRun
			rec.Run, err = intValue(v)
		case "attempts":
			bit = fAttempts
			rec.Attempts, err = intValue(v)
		case "completed":
			bit = fCompleted
			rec.Completed, err = v.Bool()
		case "passed":
			bit = fPassed
			rec.Passed, err = v.Bool()
		case "evaluations":
			bit = fEvaluations
			rec.Evaluations, err = scanEvaluations(v)
		case "termination_reasons":
			bit = fTerminationReasons
			rec.TerminationReasons, err = v.Strings(nil)
		case "duration_ms":
			bit = fDurationMS
			rec.DurationMS, err = v.Float()
		case "usage":
			bit = fUsage
			err = jsonl.Usage(v, &rec.Usage)
		case "cost":
			bit = fCost
			err = scanCost(v, &rec.Cost)
		case "model":
			bit = fModel
			rec.Model, err = v.String()
		case "efficiency":
			bit = fEfficiency
			err = scanEfficiency(v, rec)
		default:
			return 0, nil
		}
		return bit, err
	})
}

// raw is a json.RawMessage of v, copied out of the line (null stays null).
func raw(v jsonl.Value) json.RawMessage {
	if v.Null() {
		return json.RawMessage("null")
	}
	if v.Kind == jsonparser.String {
		return append(append(append(make(json.RawMessage, 0, len(v.Raw)+2), '"'), v.Raw...), '"')
	}
	return bytes.Clone(v.Raw)
}

// intValue is Value.Int for an int field.
func intValue(v jsonl.Value) (int, error) {
	n, err := v.Int()
	return int(n), err
}

// scanEvaluations reads the evaluations' type, description, verdict and error.
func scanEvaluations(v jsonl.Value) ([]evalRecord, error) {
	var evals []evalRecord
	if v.Kind == jsonparser.Array {
		evals = []evalRecord{} // as encoding/json decodes []
	}
	err := v.Each(func(e jsonl.Value) error {
		var er evalRecord
		err := jsonl.ObjectFields(e, func(key []byte, v jsonl.Value) (uint64, error) {
			var err error
			switch string(key) {
			case "type":
				er.Type, err = v.String()
				return 1, err
			case "description":
				er.Description, err = v.String()
				return 2, err
			case "passed":
				er.Passed, err = v.Bool()
				return 4, err
			case "error":
				er.Error, err = v.String()
				return 8, err
			}
			return 0, nil
		})
		evals = append(evals, er)
		return err
	})
	return evals, err
}

// scanCost reads a job's cost (null or absent: the run priced nothing).
func scanCost(v jsonl.Value, c *costRecord) error {
	if v.Null() {
		return nil
	}
	c.present = true
	return jsonl.ObjectFields(v, func(key []byte, v jsonl.Value) (uint64, error) {
		var usd *nullUSD
		var bit uint64
		switch string(key) {
		case "usd":
			usd, bit = &c.USD, 1
		case "agent_usd":
			usd, bit = &c.Agent, 2
		case "user_usd":
			usd, bit = &c.User, 4
		case "judge_usd":
			usd, bit = &c.Judge, 8
		case "unpriced":
			var err error
			c.Unpriced, err = v.Strings(nil)
			return 16, err
		case "as_of":
			var err error
			c.AsOf, err = v.Strings(nil)
			return 32, err
		default:
			return 0, nil
		}
		if v.Null() {
			*usd = nullUSD{}
			return bit, nil
		}
		f, err := v.Float()
		*usd = nullUSD{v: f, ok: err == nil}
		return bit, err
	})
}

// scanEfficiency reads a suite job's turns and tool calls.
func scanEfficiency(v jsonl.Value, rec *lineRecord) error {
	e := &rec.Efficiency
	return jsonl.ObjectFields(v, func(key []byte, v jsonl.Value) (uint64, error) {
		var err error
		switch string(key) {
		case "turns":
			e.Turns, err = intValue(v)
			return 1, err
		case "tool_calls":
			return 2, jsonl.ObjectFields(v, func(key []byte, v jsonl.Value) (uint64, error) {
				var err error
				switch string(key) {
				case "total":
					e.ToolCalls.Total, err = intValue(v)
					return 1, err
				case "failed":
					e.ToolCalls.Failed, err = intValue(v)
					return 2, err
				case "by_category":
					e.ToolCalls.ByCategory, err = scanCounts(v)
					return 4, err
				}
				return 0, nil
			})
		}
		return 0, nil
	})
}

// scanCounts reads counts by name, in order (results.Counts).
func scanCounts(v jsonl.Value) (results.Counts, error) {
	if v.Null() {
		return nil, nil
	}
	if !v.Object() {
		return nil, jsonl.ErrPlain
	}
	out := results.Counts{}
	err := jsonl.EachField(v.Raw, func(key []byte, v jsonl.Value) error {
		n, err := intValue(v)
		out = append(out, results.Count{Name: string(key), N: n})
		return err
	})
	return out, err
}
