package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/internal/sources"
	"github.com/agenteval/agenteval/matrix"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/scenario"
)

type memSink struct{ results []*results.Job }

func (m *memSink) Write(r *results.Job) error { m.results = append(m.results, r); return nil }

func loadScenario(t testing.TB, name string) *scenario.Scenario {
	t.Helper()
	f, err := testLoadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	return f.Scenario
}

func TestRunEchoPasses(t *testing.T) {
	t.Parallel()
	s := loadScenario(t, "echo.scenario.yaml")
	jobs, total, err := sources.Combine([]sources.Source{sources.Scenario("echo", s, 3)}, matrix.Shard{})
	require.NoError(t, err)
	require.EqualValues(t, 3, total)
	sink := &memSink{}
	sum, err := Run(context.Background(), Config{Agent: echoAgent{}, Results: sink}, jobs)
	require.NoError(t, err)
	assert.EqualValues(t, 3, sum.Jobs)
	assert.EqualValues(t, 3, sum.Passed)
	require.Len(t, sink.results, 3)
	r := sink.results[0]
	assert.True(t, r.Completed)
	assert.Len(t, r.Evaluations, 3)
	for _, e := range r.Evaluations {
		assert.True(t, e.Passed, e.Message)
	}
	b, err := json.Marshal(r)
	require.NoError(t, err)
	assert.True(t, bytes.Contains(b, []byte(`"record":"job"`)))
}
