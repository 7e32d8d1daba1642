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
	s := sampleResults(t).Summary()
	golden(t, "sample.md", render(t, func(b *bytes.Buffer) error { return WriteMarkdown(b, s) }))
}

func TestGoldenJUnit(t *testing.T) {
	t.Parallel()
	r := sampleResults(t)
	golden(t, "sample.junit.xml", render(t, func(b *bytes.Buffer) error { return WriteJUnit(b, r) }))
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
		Name       string          `xml:"name,attr"`
		Classname  string          `xml:"classname,attr"`
		Time       float64         `xml:"time,attr"`
		Properties []xunitProperty `xml:"properties>property"`
		Failure    *xunitProblem   `xml:"failure"`
		Error      *xunitProblem   `xml:"error"`
		Skipped    *struct{}       `xml:"skipped"`
		SystemOut  string          `xml:"system-out"`
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
	out := render(t, func(b *bytes.Buffer) error { return WriteJUnit(b, r) })
	var doc xunitSuites
	require.NoError(t, xml.Unmarshal([]byte(out), &doc))

	assert.Equal(t, s.Totals.Runs, doc.Tests)
	assert.Equal(t, s.Totals.Failed, doc.Failures)
	assert.Equal(t, s.Totals.Incomplete, doc.Errors)
	require.Len(t, doc.Suites, len(s.Scenarios))
	var sumTime float64
	for i, suite := range doc.Suites {
		sc := s.Scenarios[i]
		assert.Equal(t, sc.ID, suite.Name)
		assert.Equal(t, sc.Runs, suite.Tests)
		assert.Len(t, suite.Cases, suite.Tests, "one testcase per job")
		assert.Equal(t, "2026-11-21T12:00:00", suite.Timestamp)
		failures, errs := 0, 0
		var caseTime float64
		names := map[string]bool{}
		for _, c := range suite.Cases {
			assert.Equal(t, sc.ID, c.Classname)
			assert.False(t, names[c.Name], "testcase names are unique: %s", c.Name)
			names[c.Name] = true
			caseTime += c.Time
			if c.Failure != nil {
				failures++
				assert.NotEmpty(t, c.Failure.Message)
				assert.Contains(t, c.Failure.Text, "reply was curt & unhelpful")
			}
			if c.Error != nil {
				errs++
				assert.Equal(t, "agent: connection refused", c.Error.Message)
			}
			assert.False(t, c.Failure != nil && c.Error != nil)
		}
		assert.Equal(t, suite.Failures, failures)
		assert.Equal(t, suite.Errors, errs)
		assert.InDelta(t, suite.Time, caseTime, 0.01, "suite time is the sum of its cases")
		sumTime += suite.Time
	}
	assert.InDelta(t, doc.Time, sumTime, 0.01)

	triage := doc.Suites[1]
	first := triage.Cases[0]
	assert.Equal(t, "ca2/run-1 (plugins[0].model=a, run[0].conversation.max_turns=2)", first.Name)
	assert.Equal(t, []xunitProperty{{"plugins[0].model", "a"}, {"run[0].conversation.max_turns", "2"}}, first.Properties)
	assert.Equal(t, strconv.FormatFloat(0.8, 'f', 3, 64), strconv.FormatFloat(first.Time, 'f', 3, 64), "seconds, not milliseconds")
}
