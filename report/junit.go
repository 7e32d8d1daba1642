package report

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// WriteJUnit writes JUnit XML as CI systems read it: one <testsuite> per
// scenario, one <testcase> per job (classname the scenario id, name the
// combination and run), <failure> with the failing evaluations' messages
// for a completed job that did not pass, <error> for a job that did not
// complete, time in seconds, and the combination's parameters as testcase
// <properties>. Jobs are streamed from the inputs, not held.
func WriteJUnit(w io.Writer, r *Results) error {
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
	for i, sc := range s.Scenarios {
		suite := xml.StartElement{Name: xml.Name{Local: "testsuite"}, Attr: []xml.Attr{
			attr("name", sc.ID),
			attr("tests", strconv.Itoa(sc.Runs)),
			attr("failures", strconv.Itoa(sc.Failed)),
			attr("errors", strconv.Itoa(sc.Incomplete)),
			attr("skipped", "0"),
			attr("time", seconds(sc.Durations.Total)),
		}}
		if !s.Started.IsZero() {
			suite.Attr = append(suite.Attr, attr("timestamp", s.Started.UTC().Format("2006-01-02T15:04:05")))
		}
		if err := enc.EncodeToken(suite); err != nil {
			return fmt.Errorf("write junit: %w", err)
		}
		props := []junitProperty{{Name: "scenario_name", Value: sc.Name}, {Name: "run_id", Value: strings.Join(s.RunIDs, ",")}, {Name: "agent", Value: s.Agent}}
		if err := enc.EncodeElement(junitProperties{Properties: props}, xml.StartElement{Name: xml.Name{Local: "properties"}}); err != nil {
			return fmt.Errorf("write junit: %w", err)
		}
		var werr error
		// A passing testcase needs no evaluation messages: decode it lightly.
		rd.each(r.scenarios[i], nil, func(s *slot) bool { return s.passed }, func(j *Job, err error) bool {
			if err == nil {
				err = enc.EncodeElement(junitCase(j, sc.ID), xml.StartElement{Name: xml.Name{Local: "testcase"}})
			}
			werr = err
			return err == nil
		})
		if werr != nil {
			return fmt.Errorf("write junit: %w", werr)
		}
		if err := enc.EncodeToken(suite.End()); err != nil {
			return fmt.Errorf("write junit: %w", err)
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

func attr(name, value string) xml.Attr { return xml.Attr{Name: xml.Name{Local: name}, Value: value} }

func seconds(msv float64) string { return strconv.FormatFloat(msv/1000, 'f', 3, 64) }

func totalMS(s *Summary) float64 {
	var t float64
	for _, sc := range s.Scenarios {
		t += sc.Durations.Total
	}
	return t
}

// JUnit document shapes, shared by the writer and by tests that parse it back.
type (
	junitProperties struct {
		Properties []junitProperty `xml:"property"`
	}
	junitProperty struct {
		Name  string `xml:"name,attr"`
		Value string `xml:"value,attr"`
	}
	junitTestCase struct {
		Name       string           `xml:"name,attr"`
		Classname  string           `xml:"classname,attr"`
		Time       string           `xml:"time,attr"`
		Properties *junitProperties `xml:"properties,omitempty"`
		Failure    *junitProblem    `xml:"failure,omitempty"`
		Error      *junitProblem    `xml:"error,omitempty"`
		SystemOut  string           `xml:"system-out,omitempty"`
	}
	junitProblem struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr"`
		Text    string `xml:",chardata"`
	}
)

// junitCase builds one job's testcase.
func junitCase(j *Job, scenario string) junitTestCase {
	name := strings.TrimPrefix(strings.TrimPrefix(j.ID, scenario+"/"), "-/")
	if label := ParamsLabel(j.Params); label != "-" {
		name += " (" + label + ")"
	}
	tc := junitTestCase{Name: name, Classname: scenario, Time: seconds(j.DurationMS)}
	if len(j.Params) > 0 {
		paths := make([]string, 0, len(j.Params))
		for p := range j.Params {
			paths = append(paths, p)
		}
		slices.Sort(paths)
		props := &junitProperties{}
		for _, p := range paths {
			props.Properties = append(props.Properties, junitProperty{Name: p, Value: ValueString(j.Params[p])})
		}
		tc.Properties = props
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
	if len(j.TerminationReasons) > 0 {
		tc.SystemOut = "termination: " + strings.Join(j.TerminationReasons, ", ")
	}
	return tc
}

// firstFailure returns the first failing evaluation's message.
func firstFailure(j *Job) string {
	for _, e := range j.Evaluations {
		if !e.Passed {
			return evalLabel(e.Type, e.Description) + ": " + e.Message
		}
	}
	return "job did not pass"
}

// problemText lists the failing evaluations and checkpoints of a job.
func problemText(j *Job) string {
	var b strings.Builder
	if j.Reason != "" {
		fmt.Fprintf(&b, "verdict (%s): %s\n", j.Strategy, j.Reason)
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
		fmt.Fprintf(&b, "- %s [%s step %d", evalLabel(e.Type, e.Description), e.Scope, e.Step)
		if e.Scope == "turn" {
			fmt.Fprintf(&b, " turn %d", e.Turn)
		}
		fmt.Fprintf(&b, "]: %s", e.Message)
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
	return b.String()
}
