package runner

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// Test runs sources inside a Go test: one subtest per job, named by its id
// (scenario/combination/run-N), so `go test -run 'TestAgent/my-scenario'`
// selects scenarios and -count repeats them. A job that does not pass fails
// its subtest with the verdict's reason and every failed evaluation's
// message. cfg.Results, when set, still receives every result.
func Test(t *testing.T, cfg Config, sources ...Source) {
	t.Helper()
	jobs, _, err := Combine(sources, Shard{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := newRun(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if r.endAgent != nil {
		t.Cleanup(func() {
			for _, n := range r.endAgent() {
				t.Log(n)
			}
		})
	}
	for j, err := range jobs {
		if err != nil {
			t.Fatal(err)
		}
		t.Run(j.ID, func(t *testing.T) {
			res := r.runJob(testContext(t), j)
			if cfg.Results != nil {
				if err := cfg.Results.Write(res); err != nil {
					t.Errorf("writing result: %v", err)
				}
			}
			if !res.Passed {
				t.Error(FailureMessage(res))
			}
		})
	}
}

func testContext(t *testing.T) context.Context { return t.Context() }

// FailureMessage explains why a job did not pass: the verdict's reason,
// then each failed evaluation and checkpoint with its message.
func FailureMessage(res *JobResult) string {
	var b strings.Builder
	b.WriteString(res.Reason)
	if res.Error != "" && !strings.Contains(res.Reason, res.Error) {
		fmt.Fprintf(&b, "\nerror: %s", res.Error)
	}
	for _, e := range res.Evaluations {
		if e.Passed {
			continue
		}
		fmt.Fprintf(&b, "\n  %s: %s", evalWhere(e), e.Type)
		if e.Description != "" {
			fmt.Fprintf(&b, " (%s)", e.Description)
		}
		fmt.Fprintf(&b, ": %s", e.Message)
		if e.Error != "" {
			fmt.Fprintf(&b, " [error: %s]", e.Error)
		}
	}
	for _, c := range res.Checkpoints {
		if !c.Passed {
			fmt.Fprintf(&b, "\n  checkpoint %s: want %s", c.ID, c.Expected)
			if c.Error != "" {
				fmt.Fprintf(&b, " [error: %s]", c.Error)
			}
		}
	}
	return b.String()
}
