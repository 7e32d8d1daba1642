package report

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/agenteval/agenteval/results"
)

// writeJUnit writes JUnit XML as CI systems read it, valid against the
// Jenkins xunit plugin's junit-10.xsd (the schema most CI servers follow):
// one <testsuite> per combination (a scenario outside a matrix is one
// combination), named after the scenario and, in a matrix, its parameters,
// which are also the suite's <properties> with the scenario's name, the run
// ids and the agent. One <testcase> per job (classname the scenario id, name
// the combination, run and parameters); <failure> with the failing
// evaluations' messages for a completed job that did not pass, <error> for
// a job that did not complete; time in seconds. The job's own facts
// (id, attempts, verdict, score, tokens, termination) go to its
// <system-out>, the one place the schema leaves for them. Suites, cases and
// their failure and error counts add up to the Summary's. Jobs are streamed
// from the inputs, not held.
func writeJUnit(w io.Writer, r *Results) error {
	s := r.Summary()
	bw := bufio.NewWriter(w)
	enc := xml.NewEncoder(bw)
	enc.Indent("", "  ")
	if _, err := bw.WriteString(xml.Header); err != nil {
		return fmt.Errorf("write junit: %w", err)
	}
	root := xml.StartElement{Name: xml.Name{Local: "testsuites"}, Attr: []xml.Attr{
		attr("name", "agenteval"),
		attr("tests", strconv.Itoa(s.Totals.Runs)),
		attr("failures", strconv.Itoa(s.Totals.Failed)),
		attr("errors", strconv.Itoa(s.Totals.Incomplete)),
		attr("time", seconds(totalMS(s))),
	}}
	if err := enc.EncodeToken(root); err != nil {
		return fmt.Errorf("write junit: %w", err)
	}
	rd := r.newJobReader()
	for i := range s.Scenarios {
		sc := &s.Scenarios[i]
		// Every combination, not only those the summary lists.
		for _, ci := range r.groups[i].combos {
			if err := r.writeJUnitSuite(enc, rd, s, sc, &r.combos[ci]); err != nil {
				return fmt.Errorf("write junit: %w", err)
			}
		}
	}
	if err := enc.EncodeToken(root.End()); err != nil {
		return fmt.Errorf("write junit: %w", err)
	}
	if err := enc.Flush(); err != nil {
		return fmt.Errorf("write junit: %w", err)
	}
	if _, err := bw.WriteString("\n"); err != nil {
		return fmt.Errorf("write junit: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write junit: %w", err)
	}
	return nil
}

// writeJUnitSuite writes one combination's testsuite. Each record is read
// once: the first names the suite and is its first testcase.
func (r *Results) writeJUnitSuite(enc *xml.Encoder, rd *jobReader, s *Summary, sc *ScenarioSummary, c *combo) error {
	slots := r.comboSlots(c)
	var first *results.Job
	if len(slots) > 0 {
		j, err := rd.testcase(&slots[0])
		if err != nil {
			return err
		}
		first = j
	}
	head := r.comboHead(c, first)
	cs := &head
	name := sc.ID
	if len(cs.Params) > 0 || cs.Agent != "" || cs.Model != "" {
		name += " (" + cs.Label + ")" // a suite's combinations differ by agent and model too
	}
	suite := xml.StartElement{Name: xml.Name{Local: "testsuite"}, Attr: []xml.Attr{
		attr("name", name),
		attr("tests", strconv.Itoa(cs.Runs)),
		attr("failures", strconv.Itoa(cs.Failed)),
		attr("errors", strconv.Itoa(cs.Incomplete)),
		attr("skipped", "0"),
		attr("time", seconds(cs.Durations.Total)),
	}}
	if !s.Started.IsZero() {
		suite.Attr = append(suite.Attr, attr("timestamp", s.Started.UTC().Format("2006-01-02T15:04:05")))
	}
	if err := enc.EncodeToken(suite); err != nil {
		return err
	}
	props := []junitProperty{{Name: "scenario", Value: sc.ID}}
	for _, p := range []junitProperty{{Name: "scenario_name", Value: sc.Name},
		{Name: "run_id", Value: strings.Join(s.RunIDs, ",")}, {Name: "agent", Value: s.Agent},
		{Name: "suite_agent", Value: cs.Agent}, {Name: "model", Value: cs.Model},
		{Name: "matrix", Value: cs.Matrix}, {Name: "combination", Value: strings.TrimPrefix(cs.Combination, "-")}} {
		if p.Value != "" {
			props = append(props, p)
		}
	}
	for _, p := range sortedPaths(cs.Params) {
		props = append(props, junitProperty{Name: p, Value: valueString(cs.Params[p])})
	}
	// Token by token: EncodeElement's reflection cost more than the rest
	// of a one-job suite.
	propsStart := xml.StartElement{Name: xml.Name{Local: "properties"}}
	if err := enc.EncodeToken(propsStart); err != nil {
		return err
	}
	for _, p := range props {
		prop := xml.StartElement{Name: xml.Name{Local: "property"}, Attr: []xml.Attr{attr("name", p.Name), attr("value", p.Value)}}
		if err := enc.EncodeToken(prop); err != nil {
			return err
		}
		if err := enc.EncodeToken(prop.End()); err != nil {
			return err
		}
	}
	if err := enc.EncodeToken(propsStart.End()); err != nil {
		return err
	}
	for i := range slots {
		j := first
		if i > 0 {
			var err error
			if j, err = rd.testcase(&slots[i]); err != nil {
				return err
			}
		}
		if err := junitCase(j, sc.ID).encode(enc); err != nil {
			return err
		}
	}
	return enc.EncodeToken(suite.End())
}

func attr(name, value string) xml.Attr { return xml.Attr{Name: xml.Name{Local: name}, Value: value} }

func seconds(msv float64) string { return strconv.FormatFloat(msv/1000, 'f', 3, 64) }

func totalMS(s *Summary) float64 {
	var t float64
	for _, sc := range s.Scenarios {
		t += sc.Durations.Total
	}
	return t
}

// JUnit document shapes.
type (
	junitProperty struct {
		Name  string `xml:"name,attr"`
		Value string `xml:"value,attr"`
	}
	junitTestCase struct {
		Name, Classname, Time string
		Failure, Error        *junitProblem
		SystemOut             string
	}
	junitProblem struct {
		Message, Type, Text string
	}
)

// encode writes the testcase token by token, which keeps line breaks in
// messages literal (EncodeElement would write them as &#xA;).
func (tc junitTestCase) encode(enc *xml.Encoder) error {
	start := xml.StartElement{Name: xml.Name{Local: "testcase"},
		Attr: []xml.Attr{attr("name", tc.Name), attr("classname", tc.Classname), attr("time", tc.Time)}}
	if err := enc.EncodeToken(start); err != nil {
		return err
	}
	for _, p := range []struct {
		name string
		p    *junitProblem
	}{{"failure", tc.Failure}, {"error", tc.Error}} {
		if p.p != nil {
			if err := encodeText(enc, p.name, p.p.Text, attr("message", p.p.Message), attr("type", p.p.Type)); err != nil {
				return err
			}
		}
	}
	if tc.SystemOut != "" {
		if err := encodeText(enc, "system-out", tc.SystemOut); err != nil {
			return err
		}
	}
	return enc.EncodeToken(start.End())
}

// encodeText writes an element holding text.
func encodeText(enc *xml.Encoder, name, text string, attrs ...xml.Attr) error {
	start := xml.StartElement{Name: xml.Name{Local: name}, Attr: attrs}
	if err := enc.EncodeToken(start); err != nil {
		return err
	}
	if err := enc.EncodeToken(xml.CharData(text)); err != nil {
		return err
	}
	return enc.EncodeToken(start.End())
}

// junitCase builds one job's testcase.
func junitCase(j *results.Job, scenario string) junitTestCase {
	name := strings.TrimPrefix(strings.TrimPrefix(j.ID, scenario+"/"), "-/")
	if label := paramsLabel(j.Params); label != "-" {
		name += " (" + label + ")"
	}
	tc := junitTestCase{Name: name, Classname: scenario, Time: seconds(j.DurationMS), SystemOut: jobFacts(j)}
	if !j.Passed && len(j.Transcript) > 0 {
		// What the agent said and did, for the one who reads why it failed.
		tc.SystemOut += "transcript:\n" + transcriptText(j, defaultMaxTurnBytes)
	}
	switch {
	case !j.Completed:
		msg := j.Error
		if msg == "" {
			msg = "job did not complete"
		}
		tc.Error = &junitProblem{Message: msg, Type: "incomplete", Text: problemText(j)}
	case !j.Passed:
		msg := j.Reason
		if msg == "" {
			msg = firstFailure(j)
		}
		tc.Failure = &junitProblem{Message: msg, Type: "failed", Text: problemText(j)}
	}
	return tc
}

// jobFacts lists what the record says about a job beyond its outcome, one
// "key: value" line each, for the testcase's <system-out>.
func jobFacts(j *results.Job) string {
	var b strings.Builder
	fmt.Fprintf(&b, "job: %s (index %d)\n", j.ID, j.Index)
	if j.Attempts > 1 {
		fmt.Fprintf(&b, "attempts: %d\n", j.Attempts)
		for _, a := range j.AttemptLog {
			fmt.Fprintf(&b, "attempt %d: %s", a.N, a.Status)
			if a.Cause != "" {
				fmt.Fprintf(&b, " (%s)", a.Cause)
			}
			if a.Evidence != "" {
				fmt.Fprintf(&b, ": %s", a.Evidence)
			}
			b.WriteByte('\n')
		}
	}
	if j.Cause != "" {
		fmt.Fprintf(&b, "cause: %s\n", j.Cause)
	}
	if j.Completed {
		fmt.Fprintf(&b, "score: %s\n", strconv.FormatFloat(j.Score, 'g', 4, 64))
		// A failing job's verdict opens its <failure> text already.
		if j.Passed && j.Reason != "" {
			b.WriteString(verdictLine(j))
		}
	}
	if u := j.Usage; u.TotalTokens > 0 {
		fmt.Fprintf(&b, "tokens: %d (prompt %d, completion %d)\n", u.TotalTokens, u.PromptTokens, u.CompletionTokens)
	}
	if len(j.TerminationReasons) > 0 {
		fmt.Fprintf(&b, "termination: %s\n", strings.Join(j.TerminationReasons, ", "))
	}
	return b.String()
}

// firstFailure returns the first failing evaluation's message.
func firstFailure(j *results.Job) string {
	for _, e := range j.Evaluations {
		if !e.Passed {
			return evalLabel(e.Type, e.Description) + ": " + e.Message
		}
	}
	return "job did not pass"
}

// verdictLine is "verdict (strategy): reason", without the parentheses
// when the record names no strategy.
func verdictLine(j *results.Job) string {
	if j.Strategy == "" {
		return "verdict: " + j.Reason + "\n"
	}
	return "verdict (" + j.Strategy + "): " + j.Reason + "\n"
}

// problemText lists the failing evaluations and checkpoints of a job.
func problemText(j *results.Job) string {
	var b strings.Builder
	if j.Reason != "" {
		b.WriteString(verdictLine(j))
	}
	if j.Error != "" {
		fmt.Fprintf(&b, "error: %s\n", j.Error)
	}
	if j.DecodeError != "" {
		fmt.Fprintf(&b, "details unreadable: %s\n", j.DecodeError)
	}
	for _, e := range j.Evaluations {
		if e.Passed && e.Error == "" {
			continue
		}
		fmt.Fprintf(&b, "- %s [%s]: %s", evalLabel(e.Type, e.Description), evalWhere(e), e.Message)
		if e.Error != "" {
			fmt.Fprintf(&b, " (error: %s)", e.Error)
		}
		b.WriteByte('\n')
	}
	for _, c := range j.Checkpoints {
		if c.Passed {
			continue
		}
		fmt.Fprintf(&b, "- checkpoint %s (%s): expected %s", c.ID, c.Description, c.Expected)
		if c.Error != "" {
			fmt.Fprintf(&b, " (error: %s)", c.Error)
		}
		b.WriteByte('\n')
	}
	b.WriteString(evidenceText(j))
	return b.String()
}
