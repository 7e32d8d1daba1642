package report

import (
	"bytes"
	"encoding/xml"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/agenteval/agenteval/results"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test ./report -update to create it")
	assert.Equal(t, string(want), got)
}

func TestGoldenSample(t *testing.T) {
	t.Parallel()
	s1, s2 := sampleLines(t)
	golden(t, "shard-1.jsonl", strings.Join(s1, "\n")+"\n")
	golden(t, "shard-2.jsonl", strings.Join(s2, "\n")+"\n")
}

func TestGoldenMarkdown(t *testing.T) {
	t.Parallel()
	r := sampleResults(t)
	golden(t, "sample.md", render(t, func(b *bytes.Buffer) error { return Write(b, r, "md", WriteOptions{}) }))
}

func TestGoldenJUnit(t *testing.T) {
	t.Parallel()
	r := sampleResults(t)
	golden(t, "sample.junit.xml", render(t, func(b *bytes.Buffer) error { return writeJUnit(b, r) }))
}

// JUnit schema as CI tools read it (the Ant/Jenkins/GitLab dialect).
type (
	xunitSuites struct {
		XMLName  xml.Name     `xml:"testsuites"`
		Name     string       `xml:"name,attr"`
		Tests    int          `xml:"tests,attr"`
		Failures int          `xml:"failures,attr"`
		Errors   int          `xml:"errors,attr"`
		Time     float64      `xml:"time,attr"`
		Suites   []xunitSuite `xml:"testsuite"`
	}
	xunitSuite struct {
		Name       string          `xml:"name,attr"`
		Tests      int             `xml:"tests,attr"`
		Failures   int             `xml:"failures,attr"`
		Errors     int             `xml:"errors,attr"`
		Skipped    int             `xml:"skipped,attr"`
		Time       float64         `xml:"time,attr"`
		Timestamp  string          `xml:"timestamp,attr"`
		Properties []xunitProperty `xml:"properties>property"`
		Cases      []xunitCase     `xml:"testcase"`
	}
	xunitProperty struct {
		Name  string `xml:"name,attr"`
		Value string `xml:"value,attr"`
	}
	xunitCase struct {
		Name      string        `xml:"name,attr"`
		Classname string        `xml:"classname,attr"`
		Time      float64       `xml:"time,attr"`
		Failure   *xunitProblem `xml:"failure"`
		Error     *xunitProblem `xml:"error"`
		Skipped   *struct{}     `xml:"skipped"`
		SystemOut string        `xml:"system-out"`
	}
	xunitProblem struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr"`
		Text    string `xml:",chardata"`
	}
)

func TestJUnitStructure(t *testing.T) {
	t.Parallel()
	r := sampleResults(t)
	s := r.Summary()
	out := render(t, func(b *bytes.Buffer) error { return writeJUnit(b, r) })
	var doc xunitSuites
	require.NoError(t, xml.Unmarshal([]byte(out), &doc))

	assert.Equal(t, s.Totals.Runs, doc.Tests)
	assert.Equal(t, s.Totals.Failed, doc.Failures)
	assert.Equal(t, s.Totals.Incomplete, doc.Errors)
	var combos []CombinationSummary
	for _, sc := range s.Scenarios {
		combos = append(combos, sc.Combinations...)
	}
	require.Len(t, doc.Suites, len(combos), "one testsuite per combination")
	var sumTime float64
	names := map[string]bool{}
	for i, suite := range doc.Suites {
		c := combos[i]
		scenario, _, _ := strings.Cut(c.Key, "/")
		assert.Equal(t, c.Runs, suite.Tests)
		assert.Len(t, suite.Cases, suite.Tests, "one testcase per job")
		assert.Equal(t, "2026-11-21T12:00:00", suite.Timestamp)
		assert.Contains(t, suite.Properties, xunitProperty{"scenario", scenario})
		for p, v := range c.Params {
			assert.Contains(t, suite.Properties, xunitProperty{p, valueString(v)}, "the combination's parameters are the suite's properties")
		}
		failures, errs := 0, 0
		var caseTime float64
		for _, tc := range suite.Cases {
			assert.Equal(t, scenario, tc.Classname)
			assert.False(t, names[tc.Classname+"."+tc.Name], "testcase names are unique: %s", tc.Name)
			names[tc.Classname+"."+tc.Name] = true
			caseTime += tc.Time
			assert.Contains(t, tc.SystemOut, "job: "+c.Key+"/run-")
			if tc.Failure != nil {
				failures++
				assert.NotEmpty(t, tc.Failure.Message)
				assert.Contains(t, tc.Failure.Text, "reply was curt & unhelpful")
				assert.Contains(t, tc.Failure.Text, "[run[0].conversation.final_evaluations]", "where the evaluation is, said once")
				assert.NotContains(t, tc.Failure.Text, "step step")
			}
			if tc.Error != nil {
				errs++
				assert.Equal(t, "agent: connection refused", tc.Error.Message)
			}
			assert.False(t, tc.Failure != nil && tc.Error != nil)
		}
		assert.Equal(t, suite.Failures, failures)
		assert.Equal(t, suite.Errors, errs)
		assert.InDelta(t, suite.Time, caseTime, 0.01, "suite time is the sum of its cases")
		sumTime += suite.Time
	}
	assert.InDelta(t, doc.Time, sumTime, 0.01)

	assert.Equal(t, "greet", doc.Suites[0].Name, "outside a matrix, the suite is the scenario")
	triage := doc.Suites[1]
	assert.Equal(t, "triage (plugins[0].model=a, run[0].conversation.max_turns=2)", triage.Name)
	first := triage.Cases[0]
	assert.Equal(t, "ca2/run-1 (plugins[0].model=a, run[0].conversation.max_turns=2)", first.Name, "testcase names stay as CI history knows them")
	assert.Equal(t, strconv.FormatFloat(0.8, 'f', 3, 64), strconv.FormatFloat(first.Time, 'f', 3, 64), "seconds, not milliseconds")
	assert.Equal(t, "job: triage/ca2/run-1 (index 5)\nscore: 1\nverdict (all): all evaluations passed\ntokens: 250 (prompt 200, completion 50)\ntermination: goal_reached\n", first.SystemOut)
}

// TestJUnitVerdictWithoutStrategy: a record that names no strategy reads
// "verdict: reason", not "verdict (): reason".
func TestJUnitVerdictWithoutStrategy(t *testing.T) {
	t.Parallel()
	j := results.Job{ID: "x/-/run-1", Scenario: "x", Run: 1, Completed: true, Reason: "too short"}
	assert.Equal(t, "verdict: too short\n", problemText(&j))
	j.Strategy = "all_pass"
	assert.Equal(t, "verdict (all_pass): too short\n", problemText(&j))
}

// TestEvalWhere pins how an evaluation's place is written.
func TestEvalWhere(t *testing.T) {
	t.Parallel()
	for want, e := range map[string]results.Evaluation{
		"run[0].evaluations":                              {Scope: "step"},
		"run[2].conversation.turn_evaluations, message 4": {Scope: "turn", Step: 2, Turn: 3},
		"run[1].conversation.final_evaluations":           {Scope: "final", Step: 1},
		"run[3] (later)":                                  {Scope: "later", Step: 3},
	} {
		assert.Equal(t, want, evalWhere(e))
	}
}

func TestGoldenCSV(t *testing.T) {
	t.Parallel()
	r := sampleResults(t)
	golden(t, "sample.csv", render(t, func(b *bytes.Buffer) error { return Write(b, r, "csv", WriteOptions{}) }))
}
