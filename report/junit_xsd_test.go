package report

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"

	junit "github.com/joshdk/go-junit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/internal/testtool"
	"github.com/agenteval/agenteval/internal/xsd"
	"github.com/agenteval/agenteval/results"
)

// junitXSD is the Jenkins xunit plugin's junit-10.xsd (see
// testdata/junit-10.xsd.README for its source and licence).
const junitXSD = "testdata/junit-10.xsd"

var junitSchema = sync.OnceValues(func() (*xsd.Schema, error) {
	f, err := os.Open(junitXSD)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return xsd.Load(f)
})

// checkJUnitSchema validates doc against junit-10.xsd with internal/xsd
// and, when it is installed, with xmllint as well: both must accept it.
func checkJUnitSchema(t *testing.T, doc string) {
	t.Helper()
	schema, err := junitSchema()
	require.NoError(t, err)
	assert.NoError(t, schema.Validate(strings.NewReader(doc)), "internal/xsd against %s", junitXSD)
	valid, ran := xmllintValid(t, junitXSD, doc)
	if ran {
		assert.True(t, valid, "xmllint --schema %s", junitXSD)
	}
}

// xmllintValid asks xmllint whether doc is valid against schema; ran is
// false when xmllint is not installed.
func xmllintValid(t *testing.T, schema, doc string) (valid, ran bool) {
	t.Helper()
	bin := testtool.Optional(t, "xmllint")
	if bin == "" {
		return false, false
	}
	p := writeFile(t, t.TempDir(), "doc.xml", doc)
	out, err := exec.Command(bin, "--noout", "--nonet", "--schema", schema, p).CombinedOutput()
	if err != nil {
		var exit *exec.ExitError
		require.ErrorAs(t, err, &exit, string(out))
		t.Logf("xmllint: %s", out)
	}
	return err == nil, true
}

// checkConsumerCounts reads doc with a JUnit reader nobody here wrote
// (github.com/joshdk/go-junit, which counts testcases by their outcome
// elements as CI tools do) and checks it finds the summary's numbers.
func checkConsumerCounts(t *testing.T, doc string, s *Summary) {
	t.Helper()
	suites, err := junit.Ingest([]byte(doc))
	require.NoError(t, err)
	var got junit.Totals
	combos := 0
	for _, sc := range s.Scenarios {
		combos += len(sc.Combinations)
	}
	require.Len(t, suites, combos, "one testsuite per combination")
	for _, su := range suites {
		got.Tests += su.Totals.Tests
		got.Passed += su.Totals.Passed
		got.Failed += su.Totals.Failed
		got.Error += su.Totals.Error
		got.Skipped += su.Totals.Skipped
	}
	assert.Equal(t, junit.Totals{Tests: s.Totals.Runs, Passed: s.Totals.Passed, Failed: s.Totals.Failed, Error: s.Totals.Incomplete},
		junit.Totals{Tests: got.Tests, Passed: got.Passed, Failed: got.Failed, Error: got.Error, Skipped: got.Skipped})
}

// TestJUnitValidAgainstXSD renders JUnit for every kind of run at hand and
// checks it against junit-10.xsd and a third-party reader.
func TestJUnitValidAgainstXSD(t *testing.T) {
	t.Parallel()
	hostile := results.Job{ID: "odd/-/run-1", Scenario: "odd", ScenarioName: "quotes \" <tags> & ]]> \x01 control", Run: 1, Completed: true,
		Reason: "line one\nline two \x00 nul", Strategy: "all",
		Evaluations: []results.Evaluation{{Type: "regex_match", Scope: "turn", Turn: 3, Message: "no match in \"<b>]]>\"", Passed: false}},
		Checkpoints: []results.Checkpoint{{ID: "cp1", Description: "pr has commits", Expected: "count_gte 1", Error: "api: 502"}}}
	incomplete := results.Job{ID: "odd/-/run-2", Scenario: "odd", Run: 2, Index: 1}
	for _, tc := range []struct {
		name string
		r    func(t *testing.T) *Results
	}{
		{"sample: two shards, a resumed job, a missing job, failures and an incomplete job", func(t *testing.T) *Results { return sampleResults(t) }},
		{"the bundled examples", func(t *testing.T) *Results { return readResults(t, examplesResults(t)) }},
		{"a matrix over three parameters", func(t *testing.T) *Results { return readResults(t, matrix3Results(t)) }},
		{"nothing recorded", func(t *testing.T) *Results {
			r, err := Read([]Input{input("empty.jsonl", planLine(t, results.Plan{RunID: "r", TotalJobs: 2}))}, Options{})
			require.NoError(t, err)
			return r
		}},
		{"hostile text, no plan", func(t *testing.T) *Results {
			r, err := Read([]Input{input("odd.jsonl", jobLine(t, hostile), jobLine(t, incomplete))}, Options{})
			require.NoError(t, err)
			return r
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := tc.r(t)
			var b bytes.Buffer
			require.NoError(t, writeJUnit(&b, r))
			checkJUnitSchema(t, b.String())
			checkConsumerCounts(t, b.String(), r.Summary())
		})
	}
}

// TestJUnitSchemaCatchesTheOldShape keeps the validators honest: the shape
// writeJUnit wrote before (properties inside a testcase) is refused by both.
func TestJUnitSchemaCatchesTheOldShape(t *testing.T) {
	t.Parallel()
	old := `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="agenteval" tests="1" failures="0" errors="0" time="0.800">
  <testsuite name="triage" tests="1" failures="0" errors="0" skipped="0" time="0.800">
    <testcase name="ca2/run-1" classname="triage" time="0.800">
      <properties><property name="plugins[0].model" value="a"></property></properties>
    </testcase>
  </testsuite>
</testsuites>
`
	schema, err := junitSchema()
	require.NoError(t, err)
	err = schema.Validate(strings.NewReader(old))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "5:7: <properties>: not allowed here in <testcase>")
	if valid, ran := xmllintValid(t, junitXSD, old); ran {
		assert.False(t, valid)
	}
	// And the time format the schema pins down: at most three decimals.
	bad := strings.Replace(old, `time="0.800">
    <testcase`, `time="0.8001">
    <testcase`, 1)
	err = schema.Validate(strings.NewReader(bad))
	require.Error(t, err)
	assert.Contains(t, err.Error(), `attribute time: "0.8001" does not match the pattern of type SUREFIRE_TIME`)
	if valid, ran := xmllintValid(t, junitXSD, bad); ran {
		assert.False(t, valid)
	}
}
