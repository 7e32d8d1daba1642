package runner

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/internal/sources"
	"github.com/agenteval/agenteval/matrix"
)

// TestSuiteSourcesRunEachVariantWithItsAgent checks that a comparison is
// one run: every source once per variant, numbered one after another, ids
// prefixed with the variant, shards disjoint over the whole, and each job
// answered by its variant's agent.
func TestSuiteSourcesRunEachVariantWithItsAgent(t *testing.T) {
	t.Parallel()
	s := loadScenario(t, "echo.scenario.yaml")
	variants := []matrix.Variant{{Agent: "good", Model: "openai/m1"}, {Agent: "good", Model: "m2"}, {Agent: "bad"}}
	srcs, err := sources.Suite(variants, []sources.Source{sources.Scenario("echo", s, 2)}, 0)
	require.NoError(t, err)
	jobs, total, err := sources.Combine(srcs, matrix.Shard{})
	require.NoError(t, err)
	require.EqualValues(t, 6, total)
	var ids []string
	for j, err := range jobs {
		require.NoError(t, err)
		ids = append(ids, j.ID)
		assert.EqualValues(t, len(ids)-1, j.Index)
	}
	assert.Equal(t, []string{"good@openai:m1/echo/-/run-1", "good@openai:m1/echo/-/run-2", "good@m2/echo/-/run-1", "good@m2/echo/-/run-2",
		"bad/echo/-/run-1", "bad/echo/-/run-2"}, ids)

	seen := map[string]int{}
	for i := 1; i <= 4; i++ {
		part, _, err := sources.Combine(srcs, matrix.Shard{Index: i, Count: 4})
		require.NoError(t, err)
		for j, err := range part {
			require.NoError(t, err)
			seen[j.ID]++
			assert.EqualValues(t, i-1, j.Index%4)
		}
	}
	assert.Len(t, seen, 6, "the shards cover the comparison, each job once")

	said := func(name string) Agent {
		return AgentFunc(func(_ context.Context, cfg SessionConfig, _ string) (Reply, error) {
			return Reply{Text: name + " " + cfg.JobID}, nil
		})
	}
	sink := &memSink{}
	jobs, _, _ = sources.Combine(srcs, matrix.Shard{})
	_, err = Run(context.Background(), Config{Results: sink, Variants: map[matrix.Variant]Agent{
		variants[0]: said("one"), variants[1]: said("two"), // bad has no agent: its jobs say so
	}}, jobs)
	require.NoError(t, err)
	require.Len(t, sink.results, 6)
	for _, r := range sink.results {
		switch r.Agent + "/" + r.Model {
		case "good/openai/m1":
			assert.Contains(t, r.Transcript[1].Text, "one good@openai:m1/")
		case "good/m2":
			assert.Contains(t, r.Transcript[1].Text, "two good@m2/")
		case "bad/":
			assert.False(t, r.Completed)
			assert.Contains(t, r.Error, `no agent "bad" with model "" in this run`)
		default:
			t.Errorf("unexpected variant %q/%q", r.Agent, r.Model)
		}
	}
	_, err = Run(context.Background(), Config{}, jobs)
	assert.ErrorIs(t, err, ErrNoAgent)
}
