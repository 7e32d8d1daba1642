package runner

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/internal/sources"
	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/llm/llmtest"
	"github.com/agenteval/agenteval/matrix"
)

// someModelAgent asks its model in the first slow sessions' Send and
// echoes in the others: jobs with work of their own beside jobs that wait
// on a model endpoint.
type someModelAgent struct {
	model llm.Model
	slow  int64
	sent  atomic.Int64
}

func (a *someModelAgent) NewSession(context.Context, SessionConfig) (Session, error) {
	return &someModelSession{a}, nil
}

type someModelSession struct{ a *someModelAgent }

func (s *someModelSession) Send(ctx context.Context, m string) (Reply, error) {
	if s.a.sent.Add(1) > s.a.slow {
		return Reply{Text: m}, nil
	}
	resp, err := s.a.model.Complete(ctx, llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: m}}})
	return Reply{Text: resp.Content}, err
}

func (s *someModelSession) Close() error { return nil }

// TestJobWaitingOnRateLimitGivesUpItsSeat: at --concurrency 2, one job
// holds the endpoint's only turn (max requests 1, the provider slow) and a
// second waits for it; the other jobs, which need no model, still run to
// the end meanwhile, because the waiting job gave its seat up. Before
// seats, the waiting job held its worker and no other job ran until the
// provider answered.
func TestJobWaitingOnRateLimitGivesUpItsSeat(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	release := make(chan struct{})
	srv.Handle(func(llmtest.Request) llmtest.Reply {
		<-release
		return llmtest.Text("ok")
	})
	limits := llm.NewLimits(llm.EndpointLimits{MaxRequests: 1})
	cfg := srv.Config()
	cfg.Limits = limits
	m, err := llm.NewOpenAI(cfg)
	require.NoError(t, err)
	agent := &someModelAgent{model: m, slow: 2}

	const total = 6
	s := loadScenario(t, "echo.scenario.yaml")
	jobs, _, err := sources.Combine([]sources.Source{sources.Scenario(s.ID, s, total)}, matrix.Shard{})
	require.NoError(t, err)
	var done atomic.Int64
	var last atomic.Value
	ran := make(chan Summary, 1)
	go func() {
		sum, err := Run(t.Context(), Config{Agent: agent, Concurrency: 2, Limits: limits, Progress: func(p Progress) {
			done.Store(p.Done)
			last.Store(p.Throttle)
		}}, jobs)
		assert.NoError(t, err)
		ran <- sum
	}()
	require.Eventually(t, func() bool { return done.Load() == total-2 && len(srv.Requests()) == 1 }, 10*time.Second, time.Millisecond,
		"the jobs that need no model finish while two wait on the endpoint")
	now := limits.Stats()
	assert.Equal(t, 1, now.InFlight, "the endpoint's one turn is taken")
	assert.Equal(t, 1, now.Waiting, "the other call waits for it")
	assert.Equal(t, int64(total-2), done.Load())
	th, _ := last.Load().(llm.ThrottleStats)
	assert.Equal(t, 1, th.Limit)
	assert.Positive(t, th.Waits, "the progress says the run was throttled")
	close(release)
	sum := <-ran
	assert.Equal(t, int64(total), sum.Jobs)
	assert.Len(t, srv.Requests(), 2)
}

// TestSeatsBoundRunningJobs: the seats never seat more than their capacity
// through sit, a waiting job's seat goes to another, and a wait told after
// its job ended changes nothing.
func TestSeatsBoundRunningJobs(t *testing.T) {
	t.Parallel()
	s := newSeats(2)
	require.True(t, s.sit(t.Context()))
	a := s.take()
	require.True(t, s.sit(t.Context()))
	b := s.take()
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Millisecond)
	defer cancel()
	assert.False(t, s.sit(ctx), "no third seat while two jobs run")

	a.hook(true) // a waits under a rate limit: its seat is free
	require.True(t, s.sit(t.Context()))
	c := s.take()
	a.hook(false) // a sits down again at once: one over, for a moment
	assert.Equal(t, 3, s.seated)
	a.end()
	b.end()
	c.end()
	assert.Zero(t, s.seated)

	d := s.take()
	s.seated++
	d.hook(true)
	d.end()
	d.hook(false) // an abandoned call's wait ends after its job
	assert.Zero(t, s.seated)
}
