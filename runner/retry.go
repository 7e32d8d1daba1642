package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"

	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/matrix"
	"github.com/agenteval/agenteval/results"
)

// defaultInfraRetries is Config.InfraRetries's default: how many more
// attempts a job gets after attempts lost to the infrastructure.
const defaultInfraRetries = 2

// infraRetries returns the configured bound (Config.InfraRetries).
func (c *Config) infraRetries() int {
	switch {
	case c.InfraRetries < 0:
		return 0
	case c.InfraRetries == 0:
		return defaultInfraRetries
	}
	return c.InfraRetries
}

// attempts runs j's attempts: until one passes, then while retries are
// left (an attempt lost to the infrastructure uses Config.InfraRetries
// first, any other that did not pass the scenario's allowed_retries). The
// job passed if any attempt passed, else failed if any attempt completed,
// else it is incomplete; its record is the deciding attempt's (the last
// with the job's status) with every attempt in AttemptLog.
func (r *run) attempts(ctx context.Context, j matrix.Job, w *worker) *results.Job {
	retries := max(0, j.Scenario.AllowedRetries)
	infra := r.cfg.infraRetries()
	var log []results.Attempt
	var decided *results.Job
	for a := 1; ; a++ {
		res := r.attemptSafely(ctx, j, a, w)
		settleCause(res)
		log = append(log, attemptOf(a, res))
		if decided == nil || rank(res) >= rank(decided) {
			decided = res
		}
		if res.Passed || ctx.Err() != nil {
			break
		}
		if res.Cause.Infrastructure() && infra > 0 {
			infra--
			continue
		}
		if retries == 0 {
			break
		}
		retries--
	}
	decided.Attempts = len(log)
	if len(log) > 1 {
		decided.AttemptLog = log
	}
	return decided
}

// statusOf names r's outcome as an attempt's record does.
func statusOf(r *results.Job) string {
	switch {
	case r.Passed:
		return "passed"
	case r.Completed:
		return "failed"
	}
	return "incomplete"
}

// rank orders outcomes: passed over failed over incomplete.
func rank(r *results.Job) int {
	switch {
	case r.Passed:
		return 2
	case r.Completed:
		return 1
	}
	return 0
}

// settleCause gives a result that did not pass its cause, when the attempt
// left it unset: a completed run failed its checks.
func settleCause(r *results.Job) {
	switch {
	case r.Passed:
		r.Cause = ""
	case r.Completed:
		r.Cause = results.CauseChecks
	case r.Cause == "":
		r.Cause = results.CauseNoVerdict
	}
}

// attemptOf is the summary of one attempt a retried job's record keeps.
func attemptOf(n int, r *results.Job) results.Attempt {
	return results.Attempt{N: n, Status: statusOf(r), Cause: r.Cause, Reason: r.Reason, Evidence: evidenceOf(r),
		Score: r.Score, Started: r.Started, DurationMS: r.DurationMS, Usage: r.Usage}
}

// evidenceOf summarises what decided an attempt: the error that kept it
// from a verdict, or the checks that failed.
func evidenceOf(r *results.Job) string {
	const maxLen, show = 300, 5
	if !r.Completed {
		e, _, _ := strings.Cut(r.Error, "\n") // a panic's stack stays on the record
		if len(e) > maxLen {
			e = strings.ToValidUTF8(e[:maxLen], "") + "…"
		}
		return e
	}
	var failed []string
	n := 0
	for _, e := range r.Evaluations {
		if !e.Passed {
			if n++; n <= show {
				failed = append(failed, fmt.Sprintf("%s (%s)", evalName(e), e.Where()))
			}
		}
	}
	for _, c := range r.Checkpoints {
		if !c.Passed {
			if n++; n <= show {
				failed = append(failed, "checkpoint "+c.ID)
			}
		}
	}
	if n == 0 {
		return ""
	}
	s := "failed: " + strings.Join(failed, ", ")
	if n > show {
		s += fmt.Sprintf(" and %d more", n-show)
	}
	return s
}

// connectionLost reports whether err is a lost or refused connection (a
// reset, a refusal, a response cut short), not an answer.
func connectionLost(err error) bool {
	var op *net.OpError
	return errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.EPIPE) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.As(err, &op)
}

// causeOf classifies err: a timeout, a model API's 429 or 5xx, a lost
// connection, else dflt (nil err: dflt).
func causeOf(err error, dflt results.Cause) results.Cause {
	if err == nil {
		return dflt
	}
	var api *llm.APIError
	switch {
	case errors.As(err, &api):
		switch {
		case api.StatusCode == http.StatusTooManyRequests:
			return results.CauseRateLimited
		case api.StatusCode == http.StatusRequestTimeout:
			return results.CauseTimeout
		case api.StatusCode >= 500:
			return results.CauseServerError
		}
		return dflt
	case errors.Is(err, errTimeout), errors.Is(err, context.DeadlineExceeded):
		return results.CauseTimeout
	case connectionLost(err):
		return results.CauseConnectionLost
	}
	return dflt
}
