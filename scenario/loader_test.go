package scenario_test

import (
	"encoding/json"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/internal/evalparams"
	"github.com/agenteval/agenteval/scenario"
)

func TestLoadAppliesDefaults(t *testing.T) {
	t.Parallel()
	f, err := load("dir/typical.scenario.yaml", []byte(typicalScenario))
	require.NoError(t, err)
	s := f.Scenario
	assert.Equal(t, "typical", s.ID, "the id comes from the file name")
	assert.Equal(t, 30*time.Second, time.Duration(s.Run[0].Timeout))
	c := s.Run[1].Conversation
	require.NotNil(t, c)
	assert.Equal(t, 30000, c.TimeoutPerTurnMS)
	assert.Equal(t, 300000, c.TotalTimeoutMS)
	assert.Equal(t, "TEXT_LARGE", c.UserSimulator.ModelType)
	assert.InDelta(t, 0.7, *c.UserSimulator.Temperature, 0)
	assert.Equal(t, "intermediate", c.UserSimulator.KnowledgeLevel)
	assert.True(t, *c.DebugOptions.ExportFullTranscript)
	us, ok := c.FinalEvaluations[1].Params.(*evalparams.UserSatisfaction)
	require.True(t, ok)
	assert.Equal(t, "llm_judge", us.MeasurementMethod)
	assert.InDelta(t, 0.7, *us.SatisfactionThreshold, 0)
	re, ok := s.Run[0].Evaluations[1].Params.(*evalparams.RegexMatch)
	require.True(t, ok)
	assert.Equal(t, "#[0-9]+", re.Pattern)
	assert.Equal(t, []scenario.Plugin{{Name: "@elizaos/plugin-sql"}, {Name: "@elizaos/plugin-github", Enabled: ptr(true)}}, s.Plugins)
	assert.Equal(t, []any{map[string]any{"number": 1.0, "title": "Bug"}}, s.Setup.Mocks[0].Response)

	// Evaluations write back as one object, parameters included.
	b, err := json.Marshal(s.Run[0].Evaluations[3])
	require.NoError(t, err)
	assert.JSONEq(t, `{"type":"llm_judge","prompt":"Did the agent list the issues?","expected":"yes","capabilities":["lists issues","is concise"]}`, string(b))
}

func ptr[T any](v T) *T { return &v }

func TestLoadValue(t *testing.T) {
	t.Parallel()
	l := newLoader(scenario.Options{})
	v := map[string]any{
		"name": "From a matrix", "description": "d", "environment": map[string]any{"type": "local"},
		"run":      []any{map[string]any{"input": "hi", "conversation": map[string]any{"max_turns": json.Number("0")}}},
		"judgment": map[string]any{"strategy": "all_pass"},
	}
	f, err := l.LoadValue(scenario.KindScenario, "override", v)
	require.Error(t, err)
	require.Len(t, f.Diagnostics, 2)
	assert.Equal(t, "no-checks", f.Diagnostics[0].Code)
	d := f.Diagnostics[1]
	assert.Equal(t, []any{0, 0, "run[0].conversation.max_turns", "range"}, []any{d.Line, d.Column, d.Path.String(), d.Code})
	assert.Equal(t, "override: error: run[0].conversation.max_turns: 0 is below the minimum 1", d.String())
}

// TestLoadValueGoValues passes values built in Go, as a matrix override
// may: ints, floats and typed slices and maps are read as their JSON form.
func TestLoadValueGoValues(t *testing.T) {
	t.Parallel()
	l := newLoader(scenario.Options{})
	v := map[string]any{
		"name": "Go values", "description": "d", "environment": map[string]string{"type": "local"},
		"tags": []string{"a", "b"}, "timeout_ms": 5000, "allowed_retries": int64(2),
		"run": []map[string]any{{"input": "hi", "timeout": 1500.0, "conversation": map[string]any{"max_turns": 3, "user_simulator": map[string]any{"persona": "p", "objective": "o", "temperature": 0.5}},
			"evaluations": []any{map[string]any{"type": "string_contains", "value": "x", "weight": 2}}}},
		"judgment": map[string]any{"strategy": "all_pass"},
	}
	f, err := l.LoadValue(scenario.KindScenario, "override", v)
	require.NoError(t, err)
	s := f.Scenario
	assert.Equal(t, []string{"a", "b"}, s.Tags)
	assert.Equal(t, 5000, s.TimeoutMS)
	assert.Equal(t, 2, s.AllowedRetries)
	assert.Equal(t, 1500*time.Millisecond, time.Duration(s.Run[0].Timeout))
	assert.Equal(t, 3, s.Run[0].Conversation.MaxTurns)
	assert.InDelta(t, 2.0, *s.Run[0].Evaluations[0].Weight, 0)

	_, err = l.LoadValue(scenario.KindScenario, "override", map[string]any{"name": func() {}})
	assert.ErrorContains(t, err, "override: error: value cannot be written as JSON: json: unsupported type: func()")
}

func TestLoadFSAndDir(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{
		"scenarios/a.scenario.yaml":        {Data: []byte(typicalScenario)},
		"scenarios/sweep.matrix.yaml":      {Data: []byte("name: S\nbase_scenario: a.scenario.yaml\nmatrix:\n  - parameter: run[0].input\n    values: [x, z]\n")},
		"scenarios/testdata/skip.yaml":     {Data: []byte("not: [valid")},
		"scenarios/.hidden/skip.yaml":      {Data: []byte("not: [valid")},
		"scenarios/README.md":              {Data: []byte("# not loaded")},
		"scenarios/ghx/pr-fix-001.json":    {Data: []byte(`{"id": "pr-fix-001", "name": "F", "description": "D", "prompt": "P", "timeoutMs": 5, "category": "pr", "difficulty": "basic", "assertions": {"checkpoints": [{"id": "c", "description": "d", "task": "pr.view", "input": {}, "condition": {"type": "non_empty"}}]}}`)},
		"scenarios/ghx/scenario-sets.json": {Data: []byte(`{"default": ["pr-fix-001", "pr-fix-002"]}`)},
	}
	l := newLoader(scenario.Options{})
	set, err := l.LoadDirFS(fsys, "scenarios")
	require.Error(t, err, "the set names an id no scenario has")
	var names []string
	for _, f := range set.Files {
		names = append(names, f.Name)
	}
	assert.Equal(t, []string{"scenarios/a.scenario.yaml", "scenarios/ghx/pr-fix-001.json", "scenarios/ghx/scenario-sets.json", "scenarios/sweep.matrix.yaml"}, names)
	assert.Len(t, set.Scenarios(), 2)
	require.Len(t, set.Matrices(), 1)
	m := set.Matrices()[0]
	require.NotNil(t, m.Base)
	assert.Equal(t, "scenarios/a.scenario.yaml", m.Base.Name)
	require.Len(t, set.Diagnostics, 1)
	assert.Equal(t, `scenarios/ghx/scenario-sets.json:1:28: error: default[1]: set "default" names scenario "pr-fix-002", but none of the *.json scenarios in scenarios/ghx/ has that id`,
		set.Diagnostics[0].String(), "another number is another scenario, not a misspelling")

	f, err := l.LoadFS(fsys, "scenarios/missing.scenario.yaml")
	require.Error(t, err)
	assert.Equal(t, "read", f.Diagnostics[0].Code)
}

// TestLoaderConcurrent loads from many goroutines with one loader; run with -race.
func TestLoaderConcurrent(t *testing.T) {
	t.Parallel()
	l := newLoader(scenario.Options{})
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			name := []string{"a.scenario.yaml", "b-001.json"}[i%2]
			data := []byte(typicalScenario)
			if i%2 == 1 {
				data = []byte(`{"id": "b-001", "name": "B", "description": "D", "prompt": "P", "timeoutMs": 5, "category": "pr", "difficulty": "basic", "assertions": {"checkpoints": []}}`)
			}
			f, err := l.Load(name, data)
			assert.NoError(t, err)
			assert.NotNil(t, f.Scenario)
		})
	}
	wg.Wait()
}
