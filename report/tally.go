package report

// evalKey identifies an evaluation across jobs: its type and description.
type evalKey struct {
	Type, Description string
}

// evalCount counts jobs, not evaluation results: a turn evaluation that
// fails on three turns of one job counts once.
type evalCount struct {
	jobs, failed, errored int
}

// Per-job evaluation flags, accumulated in a scratch map.
const (
	evalSeen uint8 = 1 << iota
	evalFailed
	evalErrored
)

// tally holds the additive aggregates of one combination. Every field can
// be subtracted again, which is how a duplicate record that loses is undone.
type tally struct {
	runs, completed, passed int
	attempts                int
	prompt, completion      int64
	total                   int64
	terms                   map[string]int
	evals                   map[evalKey]*evalCount
	// tools counts tool calls by category (a suite's efficiency records).
	tools map[string]int
	cost  costTally
}

// add adds (sign 1) or removes (sign −1) one job record.
func (t *tally) add(rec *lineRecord, sign int, scratch map[evalKey]uint8) {
	t.runs += sign
	if rec.Completed {
		t.completed += sign
	}
	if rec.Passed && rec.Completed {
		t.passed += sign
	}
	t.attempts += sign * rec.Attempts
	t.prompt += int64(sign * rec.Usage.PromptTokens)
	t.completion += int64(sign * rec.Usage.CompletionTokens)
	t.total += int64(sign * rec.Usage.TotalTokens)
	t.cost.add(&rec.Cost, sign)
	for _, c := range rec.Efficiency.ToolCalls.ByCategory {
		if t.tools == nil {
			t.tools = map[string]int{}
		}
		t.tools[c.Name] += sign * c.N
		if t.tools[c.Name] == 0 {
			delete(t.tools, c.Name)
		}
	}
	for _, reason := range rec.TerminationReasons {
		if t.terms == nil {
			t.terms = map[string]int{}
		}
		t.terms[reason] += sign
		if t.terms[reason] == 0 {
			delete(t.terms, reason)
		}
	}
	if len(rec.Evaluations) == 0 {
		return
	}
	clear(scratch)
	for _, e := range rec.Evaluations {
		k := evalKey{e.Type, e.Description}
		f := scratch[k] | evalSeen
		if !e.Passed {
			f |= evalFailed
		}
		if e.Error != "" {
			f |= evalErrored
		}
		scratch[k] = f
	}
	if t.evals == nil {
		t.evals = map[evalKey]*evalCount{}
	}
	for k, f := range scratch {
		c := t.evals[k]
		if c == nil {
			c = &evalCount{}
			t.evals[k] = c
		}
		c.jobs += sign
		if f&evalFailed != 0 {
			c.failed += sign
		}
		if f&evalErrored != 0 {
			c.errored += sign
		}
		if c.jobs == 0 {
			delete(t.evals, k)
		}
	}
}
