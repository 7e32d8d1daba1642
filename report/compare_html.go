package report

import (
	"bufio"
	"fmt"
	"html/template"
	"io"
	"strconv"
	"strings"
)

// comparisonPage is the comparison's page: the report page's style, then
// the verdict, the totals with their intervals, the efficiency table and
// the combinations.
const comparisonPage = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>agenteval comparison{{if .By}}: {{.BaselineName}} vs {{.CandidateName}}{{end}}</title>
{{style}}
</head>
<body>
<main>
<header><h1>agenteval comparison</h1>
<div class="meta">{{if .By}}By {{.By}}: baseline <code>{{.BaselineName}}</code>, candidate <code>{{.CandidateName}}</code> · {{end}}α = {{num .Alpha}} · {{.Correction}} correction</div></header>
<section id="verdict" data-failed="{{.Failed}}">
{{if .Overall.Regression}}<div class="warn">Regression overall: the candidate passes significantly less often across the matched combinations ({{overall .Overall.Method}}, p = {{p .Overall.PValue}}).</div>{{end}}
{{if .Regressions}}<div class="warn">Regression: {{.Regressions}} combination(s) pass significantly less often (one-sided Fisher exact, {{.Correction}} correction).</div>{{end}}
{{if .BelowMinPassRate}}<div class="warn">Pass rate below minimum: candidate {{pct .CandidateAll.PassRate}} &lt; {{pct .MinPassRate}}.</div>{{end}}
{{if .NothingMatched}}<div class="warn" id="nothing">Nothing compared: the baseline and the candidate have no combination in common (job ids are source/combination/run-N: the two ran different files, matrices or agents).</div>{{else}}{{with missing .}}{{if $.Incomplete}}<div class="warn" id="missing">The candidate does not cover the baseline: {{.}}; the gate cannot vouch for what did not run (--allow-missing accepts it).</div>{{else}}<p id="missing">Accepted as missing (--allow-missing): {{.}}.</p>{{end}}{{end}}{{end}}
{{if not .Failed}}<p>No significant regression (overall: {{overall .Overall.Method}}, p = {{p .Overall.PValue}}).</p>{{end}}
{{if not .NothingMatched}}<p id="power">{{power .}}</p>{{end}}
{{with reviewed}}<p id="reviewed" class="muted">{{.}}</p>{{end}}
</section>
<table class="stack wide"><thead><tr><th></th><th class="n">Baseline</th><th class="n">Candidate</th></tr></thead><tbody>
<tr><td>Pass rate (matched)</td><td class="n" data-label="Baseline">{{pct .Baseline.PassRate}} ({{.Baseline.Passed}}/{{.Baseline.Runs}})<span class="sub">{{interval .Baseline.PassInterval}}</span></td><td class="n" data-label="Candidate">{{pct .Candidate.PassRate}} ({{.Candidate.Passed}}/{{.Candidate.Runs}})<span class="sub">{{interval .Candidate.PassInterval}}</span></td></tr>
<tr><td>Completion rate (matched)</td><td class="n" data-label="Baseline">{{pct .Baseline.CompletionRate}}<span class="sub">{{interval .Baseline.CompletionInterval}}</span></td><td class="n" data-label="Candidate">{{pct .Candidate.CompletionRate}}<span class="sub">{{interval .Candidate.CompletionInterval}}</span></td></tr>
</tbody></table>
<p class="muted">Overall, stratified by combination: the candidate passed {{.Overall.Observed}} time(s) where {{printf "%.1f" .Overall.Expected}} were expected if nothing had changed ({{.Overall.Combinations}} combination(s) with both passes and failures).</p>
{{with .Efficiency}}<section id="efficiency"><h2>Efficiency</h2>
<p class="muted">Median per job over the matched combinations; reduction = 1 − candidate/baseline with its bootstrap 95% interval (1,000 resamples, seed 42), Cohen's d and the permutation test's p, as ghx's report computes them.</p>
<table class="stack wide"><thead><tr><th>Metric</th><th class="n">Baseline</th><th class="n">Candidate</th><th class="n">Reduction<span class="sub">95% CI</span></th><th class="n">Effect size</th><th class="n">p</th><th>Significant</th></tr></thead><tbody>
{{range .}}<tr data-metric="{{.Metric}}" data-significant="{{.Significant}}"><td data-label="Metric">{{metric .Metric}}</td><td class="n" data-label="Baseline">{{effmedian .Metric .BaselineMedian}}</td><td class="n" data-label="Candidate">{{effmedian .Metric .CandidateMedian}}</td><td class="n" data-label="Reduction (95% CI)">{{signed .ReductionPct}}<span class="sub">{{signed (index .CI95 0)}} – {{signed (index .CI95 1)}}</span></td><td class="n" data-label="Effect size">{{printf "%.2f" .EffectSize}} ({{.EffectMagnitude}})</td><td class="n" data-label="p">{{permp .PValue}}</td><td data-label="Significant">{{if .Significant}}yes{{else}}<span class="muted">no{{with why .}}: {{.}}{{end}}</span>{{end}}</td></tr>
{{end}}</tbody></table></section>{{end}}
{{with .Rows}}<section id="combinations"><h2>Combinations</h2>
<table class="stack wide"><thead><tr><th>Scenario</th><th>Combination</th><th class="n">Baseline</th><th class="n">Candidate</th><th class="n">Δ</th><th class="n">p</th><th class="n">adjusted p</th><th class="n">Detectable drop</th><th>Regression</th></tr></thead><tbody>
{{range .}}<tr data-key="{{.Key}}" data-regression="{{.Regression}}"><td data-label="Scenario">{{.Scenario}}</td><td data-label="Combination">{{.Label}}</td><td class="n" data-label="Baseline">{{pct .Baseline.PassRate}} ({{.Baseline.Passed}}/{{.Baseline.Runs}})</td><td class="n" data-label="Candidate">{{pct .Candidate.PassRate}} ({{.Candidate.Passed}}/{{.Candidate.Runs}})</td><td class="n" data-label="Δ">{{printf "%+.1f" (pp .Delta)}} pp</td><td class="n" data-label="p">{{p .PValue}}</td><td class="n" data-label="adjusted p">{{p .AdjustedP}}</td><td class="n" data-label="Detectable drop">{{drop .MinDetectableDrop}}</td><td data-label="Regression">{{if .Regression}}yes{{else}}<span class="muted">no</span>{{end}}</td></tr>
{{end}}</tbody></table>{{if $.MoreRows}}
<p class="muted more">{{$.MoreRows}} more matched combination(s) not shown: the table lists the {{len $.Rows}} with the smallest adjusted p; the tests cover them all.</p>{{end}}</section>{{end}}
{{if or .OnlyBaseline .OnlyCandidate .MissingShards .CandidateMissing}}<section id="unmatched"><h2>Unmatched</h2>
{{with .MissingShards}}<p>Shards of the candidate without results: {{range $i, $s := .}}{{if $i}}, {{end}}<code>{{$s}}</code>{{end}}</p>{{end}}
{{with .OnlyBaseline}}<p>Only in baseline:</p><ul>{{range .}}<li><code>{{.}}</code></li>{{end}}{{if $.MoreOnlyBaseline}}<li class="muted">… {{$.MoreOnlyBaseline}} more not shown</li>{{end}}</ul>{{end}}
{{with .OnlyCandidate}}<p>Only in candidate:</p><ul>{{range .}}<li><code>{{.}}</code></li>{{end}}{{if $.MoreOnlyCandidate}}<li class="muted">… {{$.MoreOnlyCandidate}} more not shown</li>{{end}}</ul>{{end}}
</section>{{end}}
</main>
</body>
</html>
`

// reportStyle is the report page's style element, which the comparison
// page shares.
func reportStyle() template.HTML {
	start := strings.Index(htmlTemplateText, "<style>")
	end := strings.Index(htmlTemplateText, "</style>")
	if start < 0 || end < start {
		return ""
	}
	return template.HTML(htmlTemplateText[start : end+len("</style>")]) //nolint:gosec // our own embedded template
}

// writeComparisonHTML writes a comparison as one page with the report's
// style: the verdict, the pass rates with their intervals, the efficiency
// table with which differences are significant, and the combinations.
// All text goes through html/template.
func writeComparisonHTML(w io.Writer, c *Comparison) error {
	tmpl, err := template.New("compare").Funcs(template.FuncMap{
		"style":     reportStyle,
		"pct":       pct,
		"num":       func(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) },
		"interval":  func(iv Interval) string { return pct(iv.Lower) + "–" + pct(iv.Upper) },
		"p":         pValueText,
		"permp":     permutationPText,
		"signed":    pctSigned,
		"pp":        func(d float64) float64 { return d * 100 },
		"overall":   overallMethodText,
		"missing":   missingText,
		"power":     powerSentence,
		"drop":      dropText,
		"metric":    metricText,
		"median":    medianText,
		"effmedian": effMedianText,
		"reviewed":  func() string { return reviewedText(c) },
		"why": func(e EfficiencyRow) string {
			if t := significanceText(e, c.Alpha); t != "significant" && t != "" {
				return strings.TrimPrefix(t, "not significant: ")
			}
			return ""
		},
	}).Parse(comparisonPage)
	if err != nil {
		return fmt.Errorf("write comparison html: parse template: %w", err)
	}
	bw := bufio.NewWriter(w)
	if err := tmpl.Execute(bw, c); err != nil {
		return fmt.Errorf("write comparison html: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write comparison html: %w", err)
	}
	return nil
}
