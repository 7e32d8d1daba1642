package runner

import (
	"fmt"
	"io"
	"time"
)

// ProgressPrinter reports progress: on a terminal a line redrawn in place
// (counts, pass rate so far, rate, ETA) at most ten times a second; elsewhere
// a plain line every Every jobs (and for every failure when Verbose).
type ProgressPrinter struct {
	W        io.Writer
	Terminal bool
	Every    int64
	Verbose  bool
	last     time.Time
}

// Update is a Config.Progress function.
func (p *ProgressPrinter) Update(pr Progress) {
	if p.Verbose && pr.Last != nil && !pr.Last.Passed {
		if p.Terminal {
			fmt.Fprint(p.W, "\r\033[K")
		}
		fmt.Fprintf(p.W, "FAIL %s: %s\n", pr.Last.ID, pr.Last.Reason)
	}
	done := pr.Total > 0 && pr.Done >= pr.Total
	if p.Terminal {
		if !done && time.Since(p.last) < 100*time.Millisecond {
			return
		}
		p.last = time.Now()
		fmt.Fprintf(p.W, "\r\033[K%s", p.line(pr))
		if done {
			fmt.Fprintln(p.W)
		}
		return
	}
	every := p.Every
	if every <= 0 {
		every = 1000
	}
	if pr.Done%every == 0 || done {
		fmt.Fprintln(p.W, p.line(pr))
	}
}

func (p *ProgressPrinter) line(pr Progress) string {
	rate := float64(pr.Done) / max(pr.Elapsed.Seconds(), 1e-9)
	passRate := 0.0
	if pr.Done > 0 {
		passRate = 100 * float64(pr.Passed) / float64(pr.Done)
	}
	s := fmt.Sprintf("%d", pr.Done)
	if pr.Total > 0 {
		s += fmt.Sprintf("/%d", pr.Total)
	}
	s += fmt.Sprintf(" jobs  %d passed  %d failed  %d incomplete  pass %.1f%%  %.0f jobs/s", pr.Passed, pr.Failed, pr.Incomplete, passRate, rate)
	if pr.Total > 0 && pr.Done < pr.Total && rate > 0 {
		eta := time.Duration(float64(pr.Total-pr.Done) / rate * float64(time.Second))
		s += "  ETA " + eta.Round(time.Second).String()
	}
	return s
}
