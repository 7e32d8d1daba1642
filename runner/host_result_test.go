package runner

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/internal/sources"
	"github.com/agenteval/agenteval/matrix"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/scenario"
)

// TestHostMayMutateItsResult: a result handed to a host (Progress here)
// is the host's own. The host writes into every map and slice of each
// result while the workers go on encoding the other jobs' results (a
// results.Writer is a ConcurrentSink): under -race any map or slice that
// two results share (an evaluator's pre-built details, a matrix
// parameter's value, a scenario's arguments) is a reported race, and
// without -race the encoded records show the host's writes.
func TestHostMayMutateItsResult(t *testing.T) {
	t.Parallel()
	base := []byte(`name: shared
description: evaluations whose details and arguments a host edits
environment:
  type: local
run:
  - input: "Question 7: what is topic-7?"
    evaluations:
      - type: string_contains
        value: topic-
      - type: regex_match
        pattern: 'topic-[0-9]+'
      - type: string_contains
        value: Question
        case_sensitive: true
      - type: trajectory_contains_action
        action: search
        args: {repo: a, labels: [bug]}
judgment:
  strategy: all_pass
`)
	m := []byte(`name: shared sweep
description: two object-valued arguments, twenty runs each
base_scenario: shared.scenario.yaml
runs_per_combination: 20
matrix:
  - parameter: run[0].evaluations[3].args
    values:
      - {repo: a, labels: [bug]}
      - {repo: b, labels: [docs, help]}
`)
	fsys := fstest.MapFS{"m/shared.matrix.yaml": {Data: m}, "m/shared.scenario.yaml": {Data: base}}
	f, err := scenario.NewLoader(NewRegistries(), scenario.Options{}).LoadFS(fsys, "m/shared.matrix.yaml")
	require.NoError(t, err)
	src, err := sources.Matrix(f, sources.Options{})
	require.NoError(t, err)
	jobs, total, err := sources.Combine([]sources.Source{src}, matrix.Shard{})
	require.NoError(t, err)
	require.EqualValues(t, 40, total)

	path := filepath.Join(t.TempDir(), "results.jsonl")
	w, err := results.Open(path, &results.Plan{Agent: "echo", TotalJobs: total, ShardJobs: total}, results.Options{})
	require.NoError(t, err)
	var seen int
	_, err = Run(t.Context(), Config{Agent: echoAgent{}, Results: w, Concurrency: 4, Progress: func(p Progress) {
		seen++
		scribble(reflect.ValueOf(p.Last))
	}}, jobs)
	require.NoError(t, err)
	require.NoError(t, w.Close())
	assert.Equal(t, 40, seen)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	lines := bytes.Split(bytes.TrimSpace(data), []byte("\n"))
	require.Len(t, lines, 41, "the plan and 40 jobs")
	for _, line := range lines[1:] {
		var j results.Job
		require.NoError(t, json.Unmarshal(line, &j))
		for _, e := range j.Evaluations {
			assert.NotContains(t, e.Details, "host", "%s: a record holds what a host wrote into another job's result", j.ID)
		}
		for k, v := range j.Params {
			if obj, ok := v.(map[string]any); ok {
				assert.NotContains(t, obj, "host", "%s: parameter %s", j.ID, k)
			}
		}
	}
}

// scribble writes into every map (a "host" key) and every slice element
// it can reach from v, as a host editing its result might.
func scribble(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			scribble(v.Elem())
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				scribble(v.Field(i))
			}
		}
	case reflect.Slice:
		for i := range v.Len() {
			e := v.Index(i)
			if e.Kind() == reflect.Interface && e.CanSet() {
				// An element of a []any: replace it after scribbling its contents.
				inner := e.Elem()
				if inner.IsValid() {
					scribble(inner)
				}
				e.Set(reflect.ValueOf("host"))
				continue
			}
			scribble(e)
		}
	case reflect.Map:
		if v.IsNil() {
			return
		}
		for _, k := range v.MapKeys() {
			scribble(v.MapIndex(k))
		}
		if v.Type().Key().Kind() == reflect.String && v.Type().Elem().Kind() == reflect.Interface {
			v.SetMapIndex(reflect.ValueOf("host"), reflect.ValueOf(true))
		}
	}
}

// TestWorkerRecompilesWhatAnAxisChanges: a worker reuses the compiled
// evaluations of its last job only when the lists are the same; a matrix
// axis on an evaluation's value gives each combination its own verdict,
// on one worker, in turn.
func TestWorkerRecompilesWhatAnAxisChanges(t *testing.T) {
	t.Parallel()
	base := []byte(`name: recompile
description: one check whose value the matrix varies
environment:
  type: local
run:
  - input: "Question 7: what is topic-7?"
    evaluations:
      - type: string_contains
        value: topic-
judgment:
  strategy: all_pass
`)
	m := []byte(`name: recompile sweep
description: a value that matches, one that does not, then one that does
base_scenario: recompile.scenario.yaml
runs_per_combination: 2
matrix:
  - parameter: run[0].evaluations[0].value
    values: [topic-, absent-text, Question]
  - parameter: run[0].input
    values: ["Question 7: what is topic-7?", "Question 8: what is topic-8?"]
`)
	fsys := fstest.MapFS{"m/recompile.matrix.yaml": {Data: m}, "m/recompile.scenario.yaml": {Data: base}}
	f, err := scenario.NewLoader(NewRegistries(), scenario.Options{}).LoadFS(fsys, "m/recompile.matrix.yaml")
	require.NoError(t, err)
	src, err := sources.Matrix(f, sources.Options{})
	require.NoError(t, err)
	jobs, _, err := sources.Combine([]sources.Source{src}, matrix.Shard{})
	require.NoError(t, err)
	sink := &memSink{}
	_, err = Run(t.Context(), Config{Agent: echoAgent{}, Results: sink, Concurrency: 1}, jobs)
	require.NoError(t, err)
	require.Len(t, sink.results, 12)
	for _, r := range sink.results {
		value := r.Evaluations[0].Details["value"]
		assert.Equal(t, r.Params["run[0].evaluations[0].value"], value, r.ID)
		assert.Equal(t, value != "absent-text", r.Passed, "%s: %s", r.ID, r.Reason)
	}
}
