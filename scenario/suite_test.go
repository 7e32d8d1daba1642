package scenario_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/scenario"
)

// ghxConfig is ghx's own eval.config.yaml at f128993 (see
// testdata/corpus/PROVENANCE.md).
const ghxConfig = "../testdata/corpus/ghx-f128993/packages/eval/config/eval.config.yaml"

func TestLoadSuiteFromGhxConfig(t *testing.T) {
	t.Parallel()
	specs := map[string]string{"baseline": "exec:./baseline", "mcp": "exec:./mcp", "ghx": "exec:./ghx"}
	s, f, err := defaultLoader().LoadSuite(ghxConfig, specs)
	require.NoError(t, err)
	require.Equal(t, scenario.KindEvalConfig, f.Kind)
	assert.Empty(t, f.Diagnostics, "ghx's own file loads without a finding")

	assert.Equal(t, []string{"baseline", "mcp", "ghx"}, scenario.AgentNames(s), "the modes, in ghx's order")
	i := slices.IndexFunc(s.Agents, func(a scenario.SuiteAgent) bool { return a.Name == "mcp" })
	require.GreaterOrEqual(t, i, 0)
	assert.Equal(t, "exec:./mcp", s.Agents[i].Agent)
	assert.Equal(t, []scenario.SuiteModel{{ID: "openai/gpt-5.3-codex", Label: "Codex 5.3"}}, s.Models)
	assert.Equal(t, "default", s.Scenarios.Set)
	assert.Equal(t, 5, s.Repetitions)
	assert.True(t, s.Warmup)
	assert.Equal(t, 120*time.Second, time.Duration(s.Timeouts.Step))
	dir := filepath.Dir(ghxConfig)
	assert.Equal(t, dir, s.Dir)
	// ghx reads these relative to packages/eval, the directory above config/.
	eval := filepath.Dir(dir)
	assert.Equal(t, filepath.Join(eval, "scenarios"), s.Resolve(s.Scenarios.Paths[0]))
	assert.Equal(t, filepath.Join(eval, "results"), s.Resolve(s.Output))
	require.NotNil(t, s.Fixtures)
	assert.Equal(t, filepath.Join(eval, "fixtures", "latest.json"), s.Resolve(s.Fixtures.Manifest))
	assert.Equal(t, "aryeko/ghx-bench-fixtures", s.Fixtures.Repo)
	assert.True(t, s.Fixtures.SeedIfMissing)
	assert.True(t, s.Fixtures.ReseedBetweenAgents)
	_, err = os.Stat(s.Resolve(s.Scenarios.Paths[0]))
	assert.NoError(t, err, "the scenarios ghx runs are where the suite looks")
}

func TestLoadSuiteRefusesModesWithoutAgents(t *testing.T) {
	t.Parallel()
	// ghx's provider is OpenCode: a mode given no agent runs on it.
	s, _, err := defaultLoader().LoadSuite(ghxConfig, map[string]string{"ghx": "exec:./ghx"})
	require.NoError(t, err)
	assert.Equal(t, []string{"opencode", "opencode", "exec:./ghx"}, []string{s.Agents[0].Agent, s.Agents[1].Agent, s.Agents[2].Agent})

	other := filepath.Join(t.TempDir(), "eval.config.yaml")
	require.NoError(t, os.WriteFile(other, []byte("modes: [baseline, mcp, ghx]\nprovider: {id: other}\nmodels: [{id: m, label: m}]\n"), 0o644))
	_, _, err = defaultLoader().LoadSuite(other, map[string]string{"ghx": "exec:./ghx"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "modes baseline, mcp have no agent; define each with --mode NAME=AGENT (such as --mode baseline=exec:./agent)")

	_, _, err = defaultLoader().LoadSuite(ghxConfig, map[string]string{"ghx": "echo", "mcp": "echo", "baseline": "echo", "mpc": "echo"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `has no mode "mpc"`)
}

func TestLoadSuiteModeOverridesAgent(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	name := filepath.Join(dir, "compare.suite.yaml")
	require.NoError(t, os.WriteFile(name, []byte("agents:\n  - name: good\n    agent: echo\n  - name: bad\n    agent: echo\nscenarios:\n  paths: [scenarios]\n"), 0o644))

	s, _, err := defaultLoader().LoadSuite(name, map[string]string{"bad": "exec:./bad"})
	require.NoError(t, err)
	assert.Equal(t, "exec:./bad", s.Agents[1].Agent)
	assert.Equal(t, "echo", s.Agents[0].Agent)
	assert.Equal(t, 1, s.Repetitions, "the default")
	assert.Equal(t, filepath.Join(dir, "out"), s.Resolve(s.Output), "results beside the suite by default")
	assert.Equal(t, filepath.Join(dir, "scenarios"), s.Resolve(s.Scenarios.Paths[0]))

	_, _, err = defaultLoader().LoadSuite(name, map[string]string{"god": "echo"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `has no agent "god" to give the spec "echo"; its agents are good, bad (did you mean "good"?)`)
}

func TestLoadSuiteRefusesOtherFiles(t *testing.T) {
	t.Parallel()
	_, _, err := defaultLoader().LoadSuite("../examples/scenarios/weather.scenario.yaml", nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "is a scenario file, not a suite")

	dir := t.TempDir()
	name := filepath.Join(dir, "mine.yaml")
	require.NoError(t, os.WriteFile(name, []byte("agent: good\nrepetitions: 2\n"), 0o644))
	_, f, err := defaultLoader().LoadSuite(name, nil)
	require.Error(t, err)
	assert.Equal(t, scenario.KindSuite, f.Kind, "a file nothing tells apart is read as a suite")
	assert.Contains(t, err.Error(), "agents")
}

func TestSuiteSelect(t *testing.T) {
	t.Parallel()
	set, err := defaultLoader().LoadPaths("../testdata/corpus/ghx-f128993/packages/eval/scenarios")
	require.NoError(t, err)
	ids := func(files []*scenario.File) []string {
		var out []string
		for _, f := range files {
			if f.Scenario != nil {
				out = append(out, f.Scenario.ID)
			}
		}
		return out
	}
	for _, tc := range []struct {
		sel  scenario.SuiteScenarios
		want []string
	}{
		{scenario.SuiteScenarios{}, []string{"issue-close-with-context-wf-001", "issue-to-pr-lifecycle-wf-001", "issue-triage-and-assign-wf-001", "pr-reply-threads-wf-001", "pr-review-comment-001"}},
		{scenario.SuiteScenarios{Set: "pr-only"}, []string{"pr-reply-threads-wf-001", "pr-review-comment-001"}},
		{scenario.SuiteScenarios{Set: "full", IDs: []string{"pr-review-comment-001", "issue-to-pr-lifecycle-wf-001"}}, []string{"issue-to-pr-lifecycle-wf-001", "pr-review-comment-001"}},
		{scenario.SuiteScenarios{Tags: []string{"triage", "request-changes"}}, []string{"issue-triage-and-assign-wf-001", "pr-review-comment-001"}},
		{scenario.SuiteScenarios{Category: scenario.StringList{"issue"}, Difficulty: scenario.StringList{"intermediate"}}, []string{"issue-close-with-context-wf-001", "issue-triage-and-assign-wf-001"}},
		{scenario.SuiteScenarios{Difficulty: scenario.StringList{"basic", "advanced"}}, []string{"issue-to-pr-lifecycle-wf-001", "pr-review-comment-001"}},
	} {
		s := &scenario.Suite{Scenarios: tc.sel}
		got, err := s.Select(set.Files)
		require.NoError(t, err)
		assert.Equal(t, tc.want, ids(got), "%+v", tc.sel)
	}
	_, err = (&scenario.Suite{Scenarios: scenario.SuiteScenarios{Set: "nightly"}}).Select(set.Files)
	assert.EqualError(t, err, `no scenario-sets.json among the suite's paths has the set "nightly"`)
}
