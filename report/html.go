package report

import (
	"bufio"
	"cmp"
	_ "embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/agenteval/agenteval/redact"
	"github.com/agenteval/agenteval/results"
)

//go:embed report.html.tmpl
var htmlTemplateText string

// WriteOptions tune Write.
type WriteOptions struct {
	// MaxFailingJobs bounds how many failing jobs are shown with their
	// evaluation messages and transcripts (DefaultMaxFailingJobs when 0);
	// the rest are counted.
	MaxFailingJobs int
	// MaxTurnBytes truncates each transcript message (defaultMaxTurnBytes when 0).
	MaxTurnBytes int
	// ViewerURL is where `agenteval view` serves these results
	// (DefaultViewerURL when ""): the HTML report links each job, and each
	// reason jobs failed for, to its page there (#/job/RUN/INDEX/ID,
	// #/run/RUN?why=REASON).
	ViewerURL string
}

// Defaults for WriteOptions.
const (
	DefaultMaxFailingJobs = 50
	defaultMaxTurnBytes   = 8 << 10
	// maxPassingJobs bounds the passing jobs the HTML report lists (collapsed).
	maxPassingJobs = 1000
	// DefaultViewerURL is where `agenteval view` serves by default.
	DefaultViewerURL = "http://127.0.0.1:8731/"
)

// writeHTML writes one self-contained HTML page: inline CSS and SVG, no
// scripts and no external references, laid out to read at any width (from
// a 390 px phone to a desktop, where every column is in view). Per
// scenario it shows pass rates with their Wilson intervals as bars with
// whiskers, completion rates, a heat map for every matrix in which two or
// more parameters vary (the two with the most values as axes, one map per
// value of the others and one pooled over them), the parameters' outcomes
// in matrix order, duration percentiles, and each failing job's evaluation
// messages and transcript. Combinations are labelled by what tells them
// apart: the path prefix their parameters share and the parameters that do
// not vary are said once. All text goes through html/template, so record
// content is escaped.
func writeHTML(w io.Writer, r *Results, opts WriteOptions) error {
	if opts.MaxFailingJobs <= 0 {
		opts.MaxFailingJobs = DefaultMaxFailingJobs
	}
	if opts.MaxTurnBytes <= 0 {
		opts.MaxTurnBytes = defaultMaxTurnBytes
	}
	tmpl, err := template.New("report").Funcs(template.FuncMap{
		"pct":      pct,
		"ms":       ms,
		"num":      func(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) },
		"median":   medianText,
		"usd":      usdText,
		"cost":     costText,
		"priced":   variantsPriced,
		"vcost":    variantCostText,
		"deref":    func(p *float64) float64 { return *p },
		"px":       func(f float64) string { return strconv.FormatFloat(f, 'f', 2, 64) },
		"interval": func(iv Interval) string { return pct(iv.Lower) + "–" + pct(iv.Upper) },
		"ranges":   func(rs []IndexRange) string { return rangesText(rs, 50) },
		"evalname": evalLabel,
		"where":    evalWhere,
		"kpair":    func(kv *KValue) [2]string { a, b := kText(kv); return [2]string{a, b} },
		"clip":     func(s string) string { return clip(s, opts.MaxTurnBytes) },
		"json": func(v any) string {
			b, _ := json.Marshal(v)
			return clip(string(b), 2000)
		},
		"took":   func(a results.Action) string { return ms(float64(a.End.Sub(a.Start).Microseconds()) / 1000) },
		"title":  htmlTitle,
		"budget": budgetLine,
		"rowOf": func(r htmlRow, s htmlScenario) htmlRowLabel {
			return htmlRowLabel{Label: r.Label, Plain: s.Plain, Grouped: s.Naming.Outer != "", C: r.C}
		},
		"heatOf": func(h *htmlHeat, t *htmlHeatTable) htmlHeatView { return htmlHeatView{H: h, T: t} },
		// jobLink and whyLink are pages of `agenteval view` (its URL scheme).
		"jobLink": func(viewer, run string, j *results.Job) string {
			return viewer + "#/job/" + url.PathEscape(run) + "/" + strconv.FormatInt(j.Index, 10) + "/" + url.PathEscape(j.ID)
		},
		"whyLink": func(viewer, run, why string) string {
			return viewer + "#/run/" + url.PathEscape(run) + "?" + url.Values{"why": {why}}.Encode()
		},
	}).Parse(htmlTemplateText)
	if err != nil {
		return fmt.Errorf("write html: parse template: %w", err)
	}
	s := r.Summary()
	data := htmlData{S: s, Viewer: opts.ViewerURL}
	if data.Viewer == "" {
		data.Viewer = DefaultViewerURL
	}
	if len(s.RunIDs) > 0 {
		data.Run = s.RunIDs[0]
	}
	namings := map[string]*htmlNaming{}
	for i := range s.Scenarios {
		hs := newHTMLScenario(&s.Scenarios[i], i, s.K)
		data.Scenarios = append(data.Scenarios, hs)
		namings[hs.ID] = &hs.Naming
	}
	for j, err := range r.failingJobs() {
		if err != nil {
			return fmt.Errorf("write html: %w", err)
		}
		if len(data.Failing) == opts.MaxFailingJobs {
			break
		}
		data.Failing = append(data.Failing, newHTMLJob(j, namings[j.Scenario]))
	}
	data.MoreFailing = s.Totals.Runs - s.Totals.Passed - len(data.Failing)
	// The passing jobs, light: the statistics fields and the verdict.
	rd := r.newJobReader()
	passing := func(s *slot) bool { return s.passed }
	for _, g := range r.groups {
		ok := rd.each(g, passing, passing, func(j *results.Job, err error) bool {
			if err == nil && len(data.Passing) < maxPassingJobs {
				data.Passing = append(data.Passing, newHTMLJob(j, namings[j.Scenario]))
			}
			if err != nil {
				data.passErr = err
			}
			return err == nil && len(data.Passing) < maxPassingJobs
		})
		if !ok {
			break
		}
	}
	if data.passErr != nil {
		return fmt.Errorf("write html: %w", data.passErr)
	}
	data.MorePassing = s.Totals.Passed - len(data.Passing)
	if data.Why, err = r.groupWhy(); err != nil {
		return fmt.Errorf("write html: %w", err)
	}
	bw := bufio.NewWriter(w)
	if err := tmpl.Execute(bw, data); err != nil {
		return fmt.Errorf("write html: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write html: %w", err)
	}
	return nil
}

// htmlData is what the page template renders. Each part of the page is a
// named template in report.html.tmpl fed by one field here; a new view
// (per agent, efficiency) is a new field, a new named template, and one
// line each in the page body and its table of contents.
type htmlData struct {
	S           *Summary
	Scenarios   []htmlScenario
	Failing     []htmlJob
	MoreFailing int
	// Passing are the first maxPassingJobs passing jobs (shown on demand).
	Passing     []htmlJob
	MorePassing int
	passErr     error
	// Viewer and Run make links into `agenteval view`.
	Viewer, Run string
	// Why groups the jobs that did not pass by reason.
	Why *whyReport
}

type htmlScenario struct {
	*ScenarioSummary
	K      int // the k of pass@k
	Anchor string
	Naming htmlNaming
	Rows   []htmlRow
	Heats  []*htmlHeat
	// Params are the varying parameters' outcomes, in matrix order.
	Params []ParameterSummary
	// Plain is true when no combination has parameters.
	Plain bool
}

// htmlRow is one combination: its label and its bars, in percent of the
// bar's width. Group is set on the first row of each group of rows.
type htmlRow struct {
	C                         *CombinationSummary
	Group                     *htmlGroup
	Label                     []htmlParam
	PassW, LoX, HiX, ComplX   float64
	DurP50W, DurP90W, DurP99X float64
	HasRuns                   bool
}

// htmlRowLabel is what the "rowlabel" template needs.
type htmlRowLabel struct {
	Label          []htmlParam
	Plain, Grouped bool
	C              *CombinationSummary
}

// htmlHeatView is one heat map table with its axes, for the "heat" template.
type htmlHeatView struct {
	H *htmlHeat
	T *htmlHeatTable
}

// htmlGroup heads the rows that share a value of the outer parameter, with
// their pooled outcome.
type htmlGroup struct {
	Label  []htmlParam // empty for the combinations without parameters
	Counts Counts
}

func newHTMLScenario(sc *ScenarioSummary, i, k int) htmlScenario {
	hs := htmlScenario{ScenarioSummary: sc, K: k, Anchor: "scenario-" + strconv.Itoa(i+1), Naming: newHTMLNaming(sc)}
	hs.Plain = len(hs.Naming.order.paths) == 0
	var maxDur float64
	for _, c := range sc.Combinations {
		maxDur = max(maxDur, c.Durations.P99)
	}
	var group *htmlGroup
	groupKey := "\x00start"
	for i := range sc.Combinations {
		c := &sc.Combinations[i]
		outer, label := hs.Naming.group(hs.Naming.label(c))
		if c.Agent != "" || c.Model != "" {
			// A suite's combination: its agent and model come first.
			v := []htmlParam{{Name: "agent", Path: "agent", Value: c.Agent}}
			if c.Model != "" {
				v = append(v, htmlParam{Name: "model", Path: "model", Value: c.Model})
			}
			label = append(v, label...)
		}
		row := htmlRow{C: c, Label: label, HasRuns: c.Runs > 0,
			PassW: c.PassRate * 100, LoX: c.PassInterval.Lower * 100, HiX: c.PassInterval.Upper * 100,
			ComplX: c.CompletionRate * 100}
		if maxDur > 0 {
			row.DurP50W = c.Durations.P50 / maxDur * 100
			row.DurP90W = c.Durations.P90 / maxDur * 100
			row.DurP99X = c.Durations.P99 / maxDur * 100
		}
		if hs.Naming.Outer != "" {
			key := "\x00none"
			if len(outer) > 0 {
				key = outer[0].Value
			}
			if key != groupKey {
				group, groupKey = &htmlGroup{Label: outer}, key
				row.Group = group
			}
			group.Counts = newCounts(group.Counts.Runs+c.Runs, group.Counts.Completed+c.Completed, group.Counts.Passed+c.Passed)
		}
		hs.Rows = append(hs.Rows, row)
	}
	hs.Heats = newHTMLHeats(sc, &hs.Naming)
	for _, v := range hs.Naming.Varying {
		i := slices.IndexFunc(sc.Parameters, func(p ParameterSummary) bool { return p.Path == v.Path })
		if i < 0 {
			continue
		}
		ps := ParameterSummary{Path: v.Name, Values: slices.Clone(sc.Parameters[i].Values), Other: sc.Parameters[i].Other}
		pos := hs.Naming.order.pos[v.Path]
		// A value no listed combination has (the list is capped) goes last.
		at := func(v string) int {
			if i, ok := pos[v]; ok {
				return i
			}
			return len(pos)
		}
		slices.SortStableFunc(ps.Values, func(a, b ValueSummary) int { return cmp.Compare(at(a.Value), at(b.Value)) })
		hs.Params = append(hs.Params, ps)
	}
	return hs
}

type htmlJob struct {
	*results.Job
	Params []htmlParam
	Failed []results.Evaluation
	Checks []results.Checkpoint
	// Evidence is the traceback, code-step output, failed tool calls and
	// log of the job (evidenceText).
	Evidence string
}

// newHTMLJob prepares a failing job, its parameters named as its
// scenario's combinations are (all of them, full paths, without naming).
func newHTMLJob(j *results.Job, n *htmlNaming) htmlJob {
	hj := htmlJob{Job: j, Evidence: evidenceText(j)}
	if n != nil {
		hj.Params = n.label(&CombinationSummary{Params: j.Params})
	} else {
		for _, p := range sortedPaths(j.Params) {
			hj.Params = append(hj.Params, htmlParam{Name: p, Path: p, Value: valueString(j.Params[p])})
		}
	}
	for _, e := range j.Evaluations {
		if !e.Passed || e.Error != "" {
			hj.Failed = append(hj.Failed, e)
		}
	}
	for _, c := range j.Checkpoints {
		if !c.Passed {
			hj.Checks = append(hj.Checks, c)
		}
	}
	return hj
}

// clip truncates s to at most n bytes on a rune boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	head := redact.Head(s, n) // the cut touches its mark, so a secret it cuts is masked whole
	return head + " (" + strconv.Itoa(len(s)-len(head)+len(redact.Ellipsis)) + " more bytes)"
}

// htmlTitle is the page title.
func htmlTitle(s *Summary) string {
	if len(s.RunIDs) == 0 {
		return "agenteval report"
	}
	return "agenteval report: " + strings.Join(s.RunIDs, ", ")
}
