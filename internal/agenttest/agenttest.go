// Package agenttest holds what the tests of the agent packages (agent/...)
// share: loading a scenario from bytes with the built-in registries, a
// sink that keeps a run's results, and running one scenario once through
// the runner. Tests only.
package agenttest

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/internal/sources"
	"github.com/agenteval/agenteval/matrix"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/runner"
	"github.com/agenteval/agenteval/scenario"
)

// loader is one loader of the built-in registries, shared by a test
// binary's tests so that its schemas compile once.
var loader = sync.OnceValue(func() *scenario.Loader {
	return scenario.NewLoader(runner.NewRegistries(), scenario.Options{})
})

// Load loads a document from bytes with the built-in registries.
func Load(name string, data []byte) (*scenario.File, error) { return loader().Load(name, data) }

// LoadFile loads the file at path with the built-in registries.
func LoadFile(path string) (*scenario.File, error) { return loader().LoadFile(path) }

// Sink keeps the results of a run in memory; it is safe for concurrent use.
type Sink struct {
	mu      sync.Mutex
	results []*results.Job
}

// Write keeps r.
func (s *Sink) Write(r *results.Job) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.results = append(s.results, r)
	return nil
}

// Results are the results kept so far, in the order they came.
func (s *Sink) Results() []*results.Job {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*results.Job(nil), s.results...)
}

// RunOne runs s once with cfg (its Results replaced) and returns its result.
func RunOne(t testing.TB, cfg runner.Config, s *scenario.Scenario) *results.Job {
	t.Helper()
	sink := &Sink{}
	cfg.Results = sink
	jobs, _, err := sources.Combine([]sources.Source{sources.Scenario("s", s, 1)}, matrix.Shard{})
	require.NoError(t, err)
	_, err = runner.Run(t.Context(), cfg, jobs)
	require.NoError(t, err)
	got := sink.Results()
	require.Len(t, got, 1)
	return got[0]
}
