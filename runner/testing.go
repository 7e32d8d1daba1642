package runner

import (
	"context"
	"testing"

	"github.com/agenteval/agenteval/matrix"
)

// Test runs sources inside a Go test: one subtest per job, named by its id
// (scenario/combination/run-N), so `go test -run 'TestAgent/my-scenario'`
// selects scenarios and -count repeats them. A job that does not pass fails
// its subtest with the verdict's reason and every failed evaluation's
// message. cfg.Results, when set, still receives every result.
func Test(t *testing.T, cfg Config, sources ...Source) {
	t.Helper()
	jobs, _, err := Combine(sources, matrix.Shard{})
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
				t.Error(res.Explain())
			}
		})
	}
}

func testContext(t *testing.T) context.Context { return t.Context() }
