package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/internal/jsonl"
	"github.com/agenteval/agenteval/internal/stats"
	"github.com/agenteval/agenteval/redact"
	"github.com/agenteval/agenteval/results"
)

func TestReadMergesShards(t *testing.T) {
	t.Parallel()
	r := sampleResults(t)
	s := r.Summary()
	assert.Equal(t, int64(17), s.TotalJobs)
	assert.Equal(t, int64(16), s.Recorded)
	assert.Equal(t, int64(2), s.Duplicates)
	assert.Equal(t, []IndexRange{{From: 16, To: 16}}, s.Missing)
	assert.Equal(t, int64(1), s.MissingJobs)
	assert.Equal(t, []string{"1/2", "2/2"}, s.Shards)
	assert.Equal(t, []string{"run-1"}, s.RunIDs)
	require.Len(t, s.Scenarios, 2)

	greet := s.Scenarios[0]
	assert.Equal(t, "greet", greet.ID)
	// The resumed, completed record for run 5 wins over both incomplete ones.
	assert.Equal(t, Counts{Runs: 5, Completed: 5, Passed: 3, Failed: 2, Incomplete: 0,
		PassRate: 0.6, PassInterval: stats.Wilson(3, 5), CompletionRate: 1, CompletionInterval: stats.Wilson(5, 5)}, greet.Counts)
	assert.Equal(t, 6, greet.Attempts, "the winning record of run 5 took 2 attempts")
	assert.Equal(t, [3]int64{500, 100, 600}, [3]int64{greet.Tokens.Prompt, greet.Tokens.Completion, greet.Tokens.Total})
	assert.Equal(t, results.Counts{{Name: "goal_reached", N: 3}, {Name: "max_turns", N: 2}}, greet.TerminationReasons)
	require.Len(t, greet.FailingEvaluations, 1)
	assert.Equal(t, EvaluationFailures{Type: "llm_judge", Description: "polite <and> helpful", Jobs: 2, Failed: 2, FailRate: 1}, greet.FailingEvaluations[0])
	assert.True(t, greet.Combinations[0].Flaky)
}

func TestDuplicatePreference(t *testing.T) {
	t.Parallel()
	plan := planLine(t, results.Plan{RunID: "r", TotalJobs: 1})
	pass := jobLine(t, simpleJob("s", 1, 0, "pass"))
	fail := jobLine(t, simpleJob("s", 1, 0, "fail"))
	errd := jobLine(t, simpleJob("s", 1, 0, "error"))
	tests := []struct {
		name                  string
		inputs                []Input
		completed, passed     int
		failingEvaluationJobs int
	}{
		{"later completed wins", []Input{input("a", plan, fail, pass)}, 1, 1, 0},
		{"later completed wins across files", []Input{input("a", plan, pass), input("b", plan, fail)}, 1, 0, 1},
		{"completed beats later incomplete", []Input{input("a", plan, pass), input("b", plan, errd)}, 1, 1, 0},
		{"completed beats earlier incomplete", []Input{input("a", plan, errd, fail)}, 1, 0, 1},
		{"later incomplete beats incomplete", []Input{input("a", plan, errd, errd)}, 0, 0, 0},
		// run --retry failed appended an attempt lost to the infrastructure:
		// within one file the latest record is the job's verdict, as run
		// counts it (results.Writer.Tally).
		{"latest in one file wins even incomplete", []Input{input("a", plan, fail, errd)}, 0, 0, 0},
		{"latest in one file wins even failed", []Input{input("a", plan, pass, fail)}, 1, 0, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r, err := Read(tt.inputs, Options{})
			require.NoError(t, err)
			s := r.Summary()
			require.Len(t, s.Scenarios, 1)
			sc := s.Scenarios[0]
			assert.Equal(t, 1, sc.Runs, "one job however many records")
			assert.Equal(t, tt.completed, sc.Completed)
			assert.Equal(t, tt.passed, sc.Passed)
			assert.Equal(t, int64(1), s.Duplicates)
			failing := 0
			for _, e := range sc.FailingEvaluations {
				failing += e.Failed
			}
			assert.Equal(t, tt.failingEvaluationJobs, failing, "the loser's evaluations are subtracted")
			n := 0
			for j, err := range r.Jobs() {
				require.NoError(t, err)
				assert.Equal(t, tt.passed == 1, j.Passed)
				n++
			}
			assert.Equal(t, 1, n)
		})
	}
}

func TestReadGapsAndOverlaps(t *testing.T) {
	t.Parallel()
	plan := results.Plan{RunID: "r", TotalJobs: 20, Shard: "1/3"}
	var a, b, c []string
	a = append(a, planLine(t, plan))
	plan.Shard = "2/3"
	b = append(b, planLine(t, plan))
	plan.Shard = "3/3"
	c = append(c, planLine(t, plan))
	for i := range 20 {
		j := jobLine(t, simpleJob("s", i+1, int64(i), "pass"))
		if i < 8 {
			a = append(a, j)
		}
		if i >= 6 && i < 12 { // overlaps a on 6..7
			b = append(b, j)
		}
		if i >= 15 && i != 17 { // gaps 12..14 and 17
			c = append(c, j)
		}
	}
	r, err := Read([]Input{input("a", a...), input("b", b...), input("c", c...)}, Options{})
	require.NoError(t, err)
	s := r.Summary()
	assert.Equal(t, []IndexRange{{12, 14}, {17, 17}}, s.Missing)
	assert.Equal(t, int64(4), s.MissingJobs)
	assert.Equal(t, int64(2), s.Duplicates)
	assert.Equal(t, int64(16), s.Recorded)
	assert.Equal(t, 16, s.Totals.Runs)
}

func TestConflictingPlans(t *testing.T) {
	t.Parallel()
	base := results.Plan{RunID: "r", TotalJobs: 10, Seed: 1, Agent: "x", Shard: "1/2"}
	tests := []struct {
		name  string
		edit  func(*results.Plan)
		field string
	}{
		{"total jobs", func(p *results.Plan) { p.TotalJobs = 12 }, "total_jobs"},
		{"seed", func(p *results.Plan) { p.Seed = 2 }, "seed"},
		{"agent", func(p *results.Plan) { p.Agent = "y" }, "agent"},
		{"shard count", func(p *results.Plan) { p.Shard = "1/3" }, "shard count"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			other := base
			tt.edit(&other)
			_, err := Read([]Input{input("first.jsonl", planLine(t, base)), input("second.jsonl", planLine(t, other))}, Options{})
			var pc *planConflictError
			require.ErrorAs(t, err, &pc)
			assert.Equal(t, "first.jsonl", pc.First)
			assert.Equal(t, "second.jsonl", pc.Second)
			assert.Equal(t, tt.field, pc.Field)
			assert.Contains(t, err.Error(), "first.jsonl")
			assert.Contains(t, err.Error(), "second.jsonl")
		})
	}
	t.Run("different run ids merge", func(t *testing.T) {
		t.Parallel()
		other := base
		other.RunID, other.Shard = "r2", "2/2"
		r, err := Read([]Input{input("a", planLine(t, base)), input("b", planLine(t, other))}, Options{})
		require.NoError(t, err)
		assert.Equal(t, []string{"r", "r2"}, r.Summary().RunIDs)
	})
}

func TestReadSkipsMalformedLines(t *testing.T) {
	t.Parallel()
	long := `{"record":"job","id":"s/-/run-1","reason":"` + strings.Repeat("x", 300<<10) + `","completed":true,"passed":true}`
	lines := []string{
		planLine(t, results.Plan{RunID: "r", TotalJobs: 4}),
		"",
		"not json",
		`{"record":"mystery"}`,
		`{"record":"job","id":"no-run-number"}`,
		`{"record":"job","id":"s/-/run-0"}`,
		`{"record":"job","id":"s/-/run-2","index":-3}`,
		long,
		jobLine(t, simpleJob("s", 2, 1, "pass")) + "\r",
		`{"record":"job","id":"s/-/run-3","index":2,"comp`, // truncated by a crash
	}
	r, err := Read([]Input{input("in", lines...)}, Options{MaxLineBytes: 1 << 20, MaxWarnings: 3})
	require.NoError(t, err)
	s := r.Summary()
	assert.Equal(t, int64(6), s.Malformed)
	assert.Equal(t, 2, s.Totals.Runs, "the 300 KiB line is read whole")
	assert.Len(t, s.Warnings, 4)
	assert.Contains(t, s.Warnings[0], "in:3:")
	assert.Contains(t, s.Warnings[3], "3 more warning(s)")
	assert.Equal(t, []IndexRange{{2, 3}}, s.Missing)

	r, err = Read([]Input{input("in", lines...)}, Options{MaxLineBytes: 100 << 10})
	require.NoError(t, err)
	assert.Equal(t, 1, r.Summary().Totals.Runs, "a line over the limit is skipped")
	assert.Contains(t, strings.Join(r.Summary().Warnings, "\n"), "in:8: line too long")
}

type failingReaderAt struct{}

func (failingReaderAt) ReadAt([]byte, int64) (int, error) { return 0, errors.New("disk on fire") }

func TestReadInputError(t *testing.T) {
	t.Parallel()
	_, err := Read([]Input{{Name: "broken", R: failingReaderAt{}, Size: 10}}, Options{})
	var le *lineError
	require.ErrorAs(t, err, &le)
	assert.Equal(t, "broken", le.Input)
	assert.ErrorContains(t, err, "disk on fire")
}

func TestLineReader(t *testing.T) {
	t.Parallel()
	text := "a\r\n" + strings.Repeat("b", 200<<10) + "\n\nlast"
	lr := jsonl.NewReader(strings.NewReader(text), 0, 1<<20, nil)
	var lines []string
	var offs []int64
	for {
		l, off, err := lr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		lines = append(lines, string(l))
		offs = append(offs, off)
	}
	require.Len(t, lines, 4)
	assert.Equal(t, "a", lines[0])
	assert.Len(t, lines[1], 200<<10)
	assert.Equal(t, "", lines[2])
	assert.Equal(t, "last", lines[3])
	assert.Equal(t, []int64{0, 3, 3 + 200<<10 + 1, 3 + 200<<10 + 2}, offs)
}

func TestReadFiles(t *testing.T) {
	t.Parallel()
	_, err := ReadFiles([]string{t.TempDir()}, Options{})
	require.ErrorContains(t, err, "is a directory")
	_, err = ReadFiles([]string{"does-not-exist.jsonl"}, Options{})
	require.Error(t, err)
	path := filepath.Join(t.TempDir(), "empty.jsonl")
	require.NoError(t, os.WriteFile(path, nil, 0o600))
	_, err = ReadFiles([]string{path}, Options{})
	require.ErrorIs(t, err, ErrNoResults, "a file with no records is not results")
}

func TestJobsWithUndecodableDetails(t *testing.T) {
	t.Parallel()
	// Read only decodes the statistics fields; a bad transcript timestamp
	// surfaces when the details are read back.
	line := `{"record":"job","id":"s/-/run-1","index":0,"scenario":"s","run":1,"completed":true,"passed":false,` +
		`"evaluations":[{"type":"regex_match","passed":false,"message":"no match"}],"transcript":[{"role":"user","text":"hi","at":"yesterday"}]}`
	r, err := Read([]Input{input("in", planLine(t, results.Plan{RunID: "r", TotalJobs: 1}), line)}, Options{})
	require.NoError(t, err)
	n := 0
	for j, err := range r.Jobs() {
		require.NoError(t, err)
		assert.Contains(t, j.DecodeError, "yesterday")
		assert.Equal(t, "regex_match", j.Evaluations[0].Type)
		assert.True(t, j.Completed)
		n++
	}
	assert.Equal(t, 1, n)
	junit := render(t, func(b *bytes.Buffer) error { return writeJUnit(b, r) })
	assert.Contains(t, junit, "details unreadable")
}

// TestReadMasksSecretsInEveryLine: results written before redaction (or by
// a process that did not know a secret) reach no statistic, renderer or
// warning with it.
func TestReadMasksSecretsInEveryLine(t *testing.T) {
	t.Parallel()
	const secret = "sk-report-secret-0001"
	j := simpleJob("s", 1, 0, "fail")
	j.Reason = "the agent printed " + secret
	j.Error = "echo: Authorization: Bearer " + secret
	in := input("in", planLine(t, results.Plan{RunID: "r", TotalJobs: 1, Agent: "exec:agent --key " + secret}), jobLine(t, j), `{"record":"job","id":"`+secret)
	r, err := Read([]Input{in}, Options{Redactor: redact.New(secret)})
	require.NoError(t, err)
	var out bytes.Buffer
	require.NoError(t, writeJSON(&out, r.Summary()))
	require.NoError(t, writeHTML(&out, r, WriteOptions{}))
	require.NoError(t, writeJUnit(&out, r))
	for job, err := range r.Jobs() {
		require.NoError(t, err)
		b, _ := json.Marshal(job)
		out.Write(b)
	}
	assert.NotContains(t, out.String(), secret)
	assert.Contains(t, out.String(), redact.Mask)
}

// TestReadRefusesInputsWithoutResults: an empty file, a YAML file or a log
// holds no results record; reading it as "0 jobs" would hide the mistake.
// A file with only its plan (a run killed before its first job) is results.
func TestReadRefusesInputsWithoutResults(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, text, want string
	}{
		{"empty", "", "empty.jsonl is empty: no results record (a results file opens with a plan record)"},
		{"yaml", "name: a scenario\nrun:\n  - input: hi\n", "yaml.jsonl is not a results file: no results record in its 3 line(s); yaml.jsonl:1: malformed record skipped: invalid character 'a' in literal null (expecting 'u')"},
		{"blank", "\n\n", "blank.jsonl is not a results file: no results record in its 2 line(s)"},
		{"json", `{"name":"x"}` + "\n", `json.jsonl is not a results file: no results record in its 1 line(s); json.jsonl:1: unknown record kind "" skipped`},
	} {
		_, err := Read([]Input{{Name: tc.name + ".jsonl", R: strings.NewReader(tc.text), Size: int64(len(tc.text))}}, Options{})
		require.ErrorIs(t, err, ErrNoResults, tc.name)
		assert.EqualError(t, err, tc.want)
	}
	plan := planLine(t, results.Plan{RunID: "r", TotalJobs: 2}) + "\n"
	r, err := Read([]Input{{Name: "plan.jsonl", R: strings.NewReader(plan), Size: int64(len(plan))}}, Options{})
	require.NoError(t, err)
	assert.EqualValues(t, 2, r.Summary().MissingJobs)
}
