package report

import (
	"bufio"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"strconv"
	"strings"
)

//go:embed report.html.tmpl
var htmlTemplateText string

// HTMLOptions tune WriteHTML.
type HTMLOptions struct {
	// MaxFailingJobs bounds how many failing jobs are shown with their
	// evaluation messages and transcripts (DefaultMaxFailingJobs when 0);
	// the rest are counted.
	MaxFailingJobs int
	// MaxTurnBytes truncates each transcript message (DefaultMaxTurnBytes when 0).
	MaxTurnBytes int
}

// Defaults for HTMLOptions.
const (
	DefaultMaxFailingJobs = 50
	DefaultMaxTurnBytes   = 8 << 10
)

// WriteHTML writes one self-contained HTML page: inline CSS and SVG, no
// scripts and no external references. It shows pass rates with their Wilson
// intervals as bars with whiskers, completion rates, a heat map for
// scenarios whose matrix has exactly two parameters, duration percentiles,
// and each failing job's evaluation messages and transcript. All text goes
// through html/template, so record content is escaped.
func WriteHTML(w io.Writer, r *Results, opts HTMLOptions) error {
	if opts.MaxFailingJobs <= 0 {
		opts.MaxFailingJobs = DefaultMaxFailingJobs
	}
	if opts.MaxTurnBytes <= 0 {
		opts.MaxTurnBytes = DefaultMaxTurnBytes
	}
	tmpl, err := template.New("report").Funcs(template.FuncMap{
		"pct":      pct,
		"ms":       ms,
		"num":      func(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) },
		"px":       func(f float64) string { return strconv.FormatFloat(f, 'f', 1, 64) },
		"rate":     rateText,
		"ranges":   func(rs []IndexRange) string { return rangesText(rs, 50) },
		"evalname": evalLabel,
		"kpair":    func(kv *KValue) [2]string { a, b := kText(kv); return [2]string{a, b} },
		"clip":     func(s string) string { return clip(s, opts.MaxTurnBytes) },
		"add":      func(a, b int) int { return a + b },
		"title":    htmlTitle,
		"short":    func(s string) string { return shorten(s, 58) },
	}).Parse(htmlTemplateText)
	if err != nil {
		return fmt.Errorf("write html: parse template: %w", err)
	}
	s := r.Summary()
	data := htmlData{S: s}
	for i := range s.Scenarios {
		data.Scenarios = append(data.Scenarios, newHTMLScenario(&s.Scenarios[i]))
	}
	for j, err := range r.FailingJobs() {
		if err != nil {
			return fmt.Errorf("write html: %w", err)
		}
		if len(data.Failing) == opts.MaxFailingJobs {
			break
		}
		data.Failing = append(data.Failing, newHTMLJob(j))
	}
	data.MoreFailing = s.Totals.Runs - s.Totals.Passed - len(data.Failing)
	bw := bufio.NewWriter(w)
	if err := tmpl.Execute(bw, data); err != nil {
		return fmt.Errorf("write html: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write html: %w", err)
	}
	return nil
}

// Geometry of the pass-rate chart, in SVG user units.
const (
	chartLabelW = 360
	chartBarW   = 480
	chartRowH   = 26
	chartTop    = 28
	durBarW     = 220
)

type htmlData struct {
	S           *Summary
	Scenarios   []htmlScenario
	Failing     []htmlJob
	MoreFailing int
}

type htmlScenario struct {
	*ScenarioSummary
	Rows   []htmlRow
	Height int
	Width  int
	Heat   *htmlHeat
}

type htmlRow struct {
	C                         *CombinationSummary
	Y, TextY                  int
	PassW, LoX, HiX, ComplX   float64
	DurP50W, DurP90W, DurP99X float64
	WhiskerTop, WhiskerBottom int
	ChartX0                   int
	ChartX1                   int
	HasRuns                   bool
}

func newHTMLScenario(sc *ScenarioSummary) htmlScenario {
	hs := htmlScenario{ScenarioSummary: sc, Width: chartLabelW + chartBarW + 80}
	var maxDur float64
	for _, c := range sc.Combinations {
		maxDur = max(maxDur, c.Durations.P99)
	}
	for i := range sc.Combinations {
		c := &sc.Combinations[i]
		y := chartTop + i*chartRowH
		row := htmlRow{C: c, Y: y + 5, TextY: y + 17, ChartX0: chartLabelW, ChartX1: chartLabelW + chartBarW,
			WhiskerTop: y + 4, WhiskerBottom: y + 20, HasRuns: c.Runs > 0,
			PassW: c.PassRate * chartBarW, LoX: chartLabelW + c.PassInterval.Lower*chartBarW,
			HiX: chartLabelW + c.PassInterval.Upper*chartBarW, ComplX: chartLabelW + c.CompletionRate*chartBarW}
		if maxDur > 0 {
			row.DurP50W = c.Durations.P50 / maxDur * durBarW
			row.DurP90W = c.Durations.P90 / maxDur * durBarW
			row.DurP99X = c.Durations.P99 / maxDur * durBarW
		}
		hs.Rows = append(hs.Rows, row)
	}
	hs.Height = chartTop + len(sc.Combinations)*chartRowH + 8
	if len(sc.Parameters) == 2 {
		hs.Heat = newHTMLHeat(sc)
	}
	return hs
}

// htmlHeat is a grid of pass rates over two matrix parameters.
type htmlHeat struct {
	RowPath, ColPath string
	Cols             []string
	Rows             []htmlHeatRow
}

type htmlHeatRow struct {
	Value string
	Cells []htmlHeatCell
}

type htmlHeatCell struct {
	Has    bool
	Counts Counts
	Fill   string
	Ink    string
}

func newHTMLHeat(sc *ScenarioSummary) *htmlHeat {
	rp, cp := sc.Parameters[0], sc.Parameters[1]
	h := &htmlHeat{RowPath: rp.Path, ColPath: cp.Path}
	colIdx := map[string]int{}
	for i, v := range cp.Values {
		h.Cols = append(h.Cols, v.Value)
		colIdx[v.Value] = i
	}
	rowIdx := map[string]int{}
	acc := make([][][3]int, len(rp.Values))
	for i, v := range rp.Values {
		rowIdx[v.Value] = i
		acc[i] = make([][3]int, len(cp.Values))
	}
	for _, c := range sc.Combinations {
		rv, rok := c.Params[rp.Path]
		cv, cok := c.Params[cp.Path]
		if !rok || !cok {
			continue
		}
		a := &acc[rowIdx[ValueString(rv)]][colIdx[ValueString(cv)]]
		a[0] += c.Runs
		a[1] += c.Completed
		a[2] += c.Passed
	}
	for i, v := range rp.Values {
		row := htmlHeatRow{Value: v.Value}
		for j := range cp.Values {
			a := acc[i][j]
			cell := htmlHeatCell{Has: a[0] > 0, Counts: newCounts(a[0], a[1], a[2])}
			if cell.Has {
				cell.Fill = heatColor(cell.Counts.PassRate)
				cell.Ink = "#111"
			} else {
				cell.Fill, cell.Ink = "#eee", "#777"
			}
			row.Cells = append(row.Cells, cell)
		}
		h.Rows = append(h.Rows, row)
	}
	return h
}

// heatColor maps a pass rate to a red (0) → amber → green (1) fill.
func heatColor(rate float64) string {
	return fmt.Sprintf("hsl(%d, 70%%, %d%%)", int(rate*120+0.5), 75)
}

type htmlJob struct {
	*Job
	Label  string
	Failed []Evaluation
	Checks []CheckpointResult
}

func newHTMLJob(j *Job) htmlJob {
	hj := htmlJob{Job: j, Label: ParamsLabel(j.Params)}
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
	cut := n
	for cut > 0 && !utf8RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + " … (" + strconv.Itoa(len(s)-cut) + " more bytes)"
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }

// htmlTitle is the page title.
func htmlTitle(s *Summary) string {
	if len(s.RunIDs) == 0 {
		return "agenteval report"
	}
	return "agenteval report: " + strings.Join(s.RunIDs, ", ")
}

// shorten cuts s to at most n runes, marking the cut with an ellipsis.
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
