package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/results"
	"github.com/stretchr/testify/require"
)

// t0 is the fixed start of every generated run.
var t0 = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

// wireJob is a job record as the runner writes it.
type wireJob struct {
	Record string `json:"record"`
	results.Job
}

// wirePlan is a plan record as the runner writes it.
type wirePlan struct {
	Record string `json:"record"`
	results.Plan
}

// planLine renders a plan record.
func planLine(t testing.TB, p results.Plan) string {
	t.Helper()
	b, err := json.Marshal(wirePlan{Record: "plan", Plan: p})
	require.NoError(t, err)
	return string(b)
}

// jobLine renders a job record.
func jobLine(t testing.TB, j results.Job) string {
	t.Helper()
	b, err := json.Marshal(wireJob{Record: "job", Job: j})
	require.NoError(t, err)
	return string(b)
}

// input wraps lines as an Input.
func input(name string, lines ...string) Input {
	s := strings.Join(lines, "\n") + "\n"
	return Input{Name: name, R: strings.NewReader(s), Size: int64(len(s))}
}

// simpleJob builds a job of a scenario without a matrix.
func simpleJob(scenario string, run int, index int64, outcome string) results.Job {
	j := results.Job{ID: fmt.Sprintf("%s/-/run-%d", scenario, run), Index: index, Scenario: scenario, Run: run, Attempts: 1,
		Started: t0.Add(time.Duration(index) * time.Minute), DurationMS: float64(1000 * run), Strategy: "all"}
	applyOutcome(&j, outcome)
	return j
}

// applyOutcome sets a job's verdict: "pass", "fail" or "error".
func applyOutcome(j *results.Job, outcome string) {
	switch outcome {
	case "pass":
		j.Completed, j.Passed, j.Score, j.Reason = true, true, 1, "all evaluations passed"
		j.Evaluations = []results.Evaluation{{Type: "string_contains", Description: "mentions the label", Scope: "final", Passed: true, Score: 1, Message: "found \"bug\"", Weight: 1}}
	case "fail":
		j.Completed, j.Score, j.Reason = true, 0.5, "1 of 2 evaluations failed"
		j.Evaluations = []results.Evaluation{
			{Type: "string_contains", Description: "mentions the label", Scope: "final", Passed: true, Score: 1, Message: "found \"bug\"", Weight: 1},
			{Type: "llm_judge", Description: "polite <and> helpful", Scope: "final", Passed: false, Message: "reply was curt & unhelpful", Weight: 1},
		}
	case "error":
		j.Error = "agent: connection refused"
	default:
		panic("unknown outcome " + outcome)
	}
}

// sampleInputs is the fixture behind the golden files: two shards of one
// run with a duplicate (a resumed job) and a missing job.
//
//	greet (no matrix), 5 runs: pass pass fail pass error
//	triage (matrix: model a|b × max_turns 2|4), 3 runs per combination:
//	  a,2: pass pass pass    a,4: pass fail pass
//	  b,2: fail fail error   b,4: pass pass (run 3 missing)
func sampleJobs() []results.Job {
	var jobs []results.Job
	for i, o := range []string{"pass", "pass", "fail", "pass", "error"} {
		j := simpleJob("greet", i+1, int64(i), o)
		j.ScenarioName = "Greets the user"
		j.TerminationReasons = []string{"max_turns"}
		if o == "pass" {
			j.TerminationReasons = []string{"goal_reached"}
		}
		j.Usage = llm.Usage{PromptTokens: 100, CompletionTokens: 20, TotalTokens: 120}
		j.Transcript = []results.Turn{{Role: "user", Text: "hello"}, {Role: "assistant", Text: "<script>alert(1)</script> hi", Actions: []results.Action{{Name: "lookup"}}}}
		jobs = append(jobs, j)
	}
	outcomes := map[[2]string][]string{
		{"a", "2"}: {"pass", "pass", "pass"},
		{"a", "4"}: {"pass", "fail", "pass"},
		{"b", "2"}: {"fail", "fail", "error"},
		{"b", "4"}: {"pass", "pass"},
	}
	idx := int64(5)
	for _, model := range []string{"a", "b"} {
		for _, turns := range []string{"2", "4"} {
			comb := "c" + model + turns
			for run := 1; run <= 3; run++ {
				os := outcomes[[2]string{model, turns}]
				if run > len(os) {
					idx++
					continue
				}
				j := results.Job{ID: fmt.Sprintf("triage/%s/run-%d", comb, run), Index: idx, Scenario: "triage", ScenarioName: "Triage an issue",
					Matrix: "models", Combination: comb, Run: run, Attempts: 1, Strategy: "all",
					Params:  map[string]any{"plugins[0].model": model, "run[0].conversation.max_turns": atoi(turns)},
					Started: t0.Add(time.Duration(idx) * time.Minute), DurationMS: float64(500*run) + float64(len(comb)*100),
					Usage: llm.Usage{PromptTokens: 200, CompletionTokens: 50, TotalTokens: 250}, TerminationReasons: []string{"goal_reached"}}
				applyOutcome(&j, os[run-1])
				jobs = append(jobs, j)
				idx++
			}
		}
	}
	return jobs
}

func atoi(s string) int {
	var n int
	_, _ = fmt.Sscan(s, &n)
	return n
}

// sampleLines renders the sample as two shards; shard 2 also holds a
// resumed record for greet run 5 that completed.
func sampleLines(t testing.TB) (shard1, shard2 []string) {
	plan := results.Plan{RunID: "run-1", Started: t0, TotalJobs: 17, Agent: "echo-agent", Sources: []string{"greet.scenario.yaml", "triage.matrix.yaml"}, Seed: 7}
	p1, p2 := plan, plan
	p1.Shard, p1.ShardJobs = "1/2", 9
	p2.Shard, p2.ShardJobs = "2/2", 8
	shard1 = append(shard1, planLine(t, p1))
	shard2 = append(shard2, planLine(t, p2))
	for _, j := range sampleJobs() {
		if j.Index%2 == 0 {
			shard1 = append(shard1, jobLine(t, j))
		} else {
			shard2 = append(shard2, jobLine(t, j))
		}
	}
	// greet run 5 (index 4) errored in shard 1; a resume in shard 1 appended a
	// completed failing record (it wins), and shard 2 holds a stale
	// incomplete copy (it loses to the completed one).
	resumed := simpleJob("greet", 5, 4, "fail")
	resumed.ScenarioName = "Greets the user"
	resumed.Usage = llm.Usage{PromptTokens: 100, CompletionTokens: 20, TotalTokens: 120}
	resumed.TerminationReasons = []string{"max_turns"}
	resumed.Attempts = 2
	shard1 = append(shard1, planLine(t, p1), jobLine(t, resumed))
	stale := simpleJob("greet", 5, 4, "error")
	stale.ScenarioName = "Greets the user"
	shard2 = append(shard2, jobLine(t, stale))
	return shard1, shard2
}

// sampleResults reads the sample.
func sampleResults(t testing.TB) *Results {
	t.Helper()
	s1, s2 := sampleLines(t)
	r, err := Read([]Input{input("shard-1.jsonl", s1...), input("shard-2.jsonl", s2...)}, Options{K: 2})
	require.NoError(t, err)
	return r
}

// render runs a writer into a string.
func render(t testing.TB, f func(*bytes.Buffer) error) string {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, f(&b))
	return b.String()
}
