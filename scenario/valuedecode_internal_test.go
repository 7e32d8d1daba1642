package scenario

import (
	"encoding/json"
	"net/netip"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// equivalenceInputs are documents whose every field kind decodeValue must
// treat as encoding/json does.
var equivalenceInputs = map[string]string{
	"full.scenario.yaml": `id: full
name: Full
description: Every kind of field.
tags: [a, b]
plugins:
  - "@elizaos/plugin-sql"
  - name: "@elizaos/plugin-github"
    version: 1.2.3
    enabled: false
    config: {token: x, retries: 3, nested: {list: [1, 2.5, "t", null, true]}}
character:
  name: Bot
  bio: one line
  system: Be brief.
  style: {all: [short]}
  llm: {model: gpt-4, temperature: 0.5, max_tokens: 100, top_p: 0.9}
environment:
  type: local
  setup: {workingDirectory: work, timeout: 1m30s, cleanup: false}
setup:
  virtual_fs: {a.txt: hello}
  mocks:
    - service: github
      method: get
      when: {input: {owner: acme}, args: [1, "two"], partialArgs: [1], context: {k: v}, matcher: "${input.owner} == 'acme'"}
      response: {items: [{number: 1}], total: 1.5}
      error: {code: E, message: bad, status: 500}
      metadata: {delay: 10, probability: 0.25}
run:
  - name: one
    input: hi
    timeout: 2500
    evaluations:
      - type: string_contains
        value: hi
        weight: 2
        critical: true
        description: says hi
      - type: execution_time
        max_duration_ms: 100.5
      - type: trajectory_match
        expected: [{action: A, args: {x: 1}, args_match: partial}]
  - code: echo hi
    lang: sh
    conversation:
      max_turns: 3
      timeout_per_turn_ms: 1000
      user_simulator: {persona: p, objective: o, temperature: 0, constraints: [c], knowledge_level: expert}
      termination_conditions:
        - type: custom_condition
          keywords: [bye]
          llm_judge: {prompt: "done?", threshold: 0.9}
      turn_evaluations: [{type: regex_match, pattern: "a+"}]
      final_evaluations: [{type: conversation_length, target_range: [1, 3]}]
      debug_options: {log_user_simulation: true}
judgment: {strategy: weighted, threshold: 0.6, weights: {string_contains: 2}}
timeout_ms: 60000
allowed_retries: 2
fixture: {repo: "{{fixture_repo}}", requires: [pr], bindings: {n: pr.number}, reseed_per_iteration: true}
checkpoints:
  - id: c
    description: d
    task: pr.view
    input: {owner: "{{owner}}", number: 3}
    condition: {type: field_equals, path: state, value: 7}
    weight: 1.5
    critical: true
`,
	"m.json": `{"seedId": "s", "createdAt": "2026-01-02T15:04:05Z", "repo": "acme/fx",
  "fixtures": {"pr": {"type": "pr", "number": 3.5, "repo": "acme/fx", "branch": "b", "labels": ["l"], "metadata": {"originalSha": "abc", "n": 2}}}}`,
	"sweep.matrix.yaml":  "name: S\nbase_scenario: full.scenario.yaml\nruns_per_combination: 2\nmatrix:\n  - parameter: run[0].input\n    values: [a, 1, {x: 2}]\n",
	"scenario-sets.json": `{"default": ["a-001"], "empty": []}`,
}

// TestDecodeValueMatchesEncodingJSON decodes documents both ways (plain data
// straight into the types, and through JSON text) and expects the same.
func TestDecodeValueMatchesEncodingJSON(t *testing.T) {
	t.Parallel()
	inputs := map[string][]byte{}
	for name, src := range equivalenceInputs {
		inputs[name] = []byte(src)
	}
	for _, glob := range []string{"../testdata/shared/peer/eliza/*.yaml", "../testdata/shared/peer/ghx-scenarios/*.json"} {
		names, _ := filepath.Glob(glob)
		require.NotEmpty(t, names, glob)
		for _, n := range names {
			b, err := os.ReadFile(n)
			require.NoError(t, err)
			inputs[n] = b
		}
	}
	types := newVocab(testRegistries{}.Vocabulary()).evals
	for name, src := range inputs {
		doc, ds := ParseDocument(name, src, Limits{})
		require.False(t, ds.HasErrors(), "%s: %v", name, ds)
		k := detectKind(name, doc.Value)
		newTarget := map[Kind]func() any{
			KindScenario: func() any { return new(Scenario) }, KindGitHub: func() any { return new(gitHubScenario) },
			KindMatrix: func() any { return new(Matrix) }, KindManifest: func() any { return new(Manifest) },
			KindScenarioSets: func() any { return new(map[string][]string) },
		}[k]
		require.NotNil(t, newTarget, name)
		viaValue, viaJSON := newTarget(), newTarget()
		require.NoError(t, decodeValue(doc.Value, viaValue), name)
		js, err := json.Marshal(doc.Value)
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal(js, viaJSON), name)
		for _, v := range []any{viaValue, viaJSON} {
			forEachEvaluation(v, func(e *Evaluation) {
				require.NotNil(t, types[e.Type], "%s: evaluation type %q", name, e.Type)
				require.NoError(t, e.decodeParams(types[e.Type]), name)
				e.raw, e.value = nil, nil
			})
		}
		assert.Equal(t, viaJSON, viaValue, name)
	}
}

func forEachEvaluation(v any, fn func(*Evaluation)) {
	switch x := v.(type) {
	case *Scenario:
		x.Evaluations(func(_ Path, e *Evaluation) { fn(e) })
	case *gitHubScenario:
		for i := range x.Evaluations {
			fn(&x.Evaluations[i])
		}
	}
}

func TestDecodeValueErrors(t *testing.T) {
	t.Parallel()
	var s Scenario
	err := decodeValue(map[string]any{"name": json.Number("3")}, &s)
	require.EqualError(t, err, "name: cannot store number in string")
	var c Conversation
	require.EqualError(t, decodeValue(map[string]any{"max_turns": json.Number("1.5")}, &c), "max_turns: cannot store number 1.5 in int")
	var r RunStep
	require.EqualError(t, decodeValue(map[string]any{"timeout": "soon"}, &r), `timeout: invalid duration "soon": want milliseconds or a duration such as "30s"`)
}

type embeddedBase struct {
	Shared string `json:"shared"`
	Deep   string `json:"deep"`
}

// EmbeddedPtr is exported so that a nil *EmbeddedPtr can be allocated.
type EmbeddedPtr struct {
	Extra int `json:"extra"`
}

type embeddedPtr struct {
	Hidden int `json:"hidden"`
}

// hostParams has fields of types that read themselves from JSON or text.
type hostParams struct {
	When  time.Time       `json:"when"`
	Level Severity        `json:"level"`
	Addr  netip.Addr      `json:"addr"`
	Raw   json.RawMessage `json:"raw"`
	Big   uint8           `json:"big"`
}

func TestDecodeValueUnmarshalers(t *testing.T) {
	t.Parallel()
	v := map[string]any{"when": "2026-01-02T15:04:05Z", "level": "warning", "addr": "10.0.0.1", "raw": map[string]any{"a": []any{json.Number("1")}}}
	var got, want hostParams
	require.NoError(t, decodeValue(v, &got))
	js, err := json.Marshal(v)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(js, &want))
	assert.Equal(t, want, got)
	assert.Equal(t, Warning, got.Level)
	assert.JSONEq(t, `{"a":[1]}`, string(got.Raw))

	require.EqualError(t, decodeValue(map[string]any{"level": "fatal"}, &got), `level: scenario: unknown severity "fatal"; want error or warning`)
	require.EqualError(t, decodeValue(map[string]any{"big": json.Number("300")}, &got), "big: number 300 is out of range for uint8")
}

type withEmbedded struct {
	embeddedBase
	*EmbeddedPtr
	Deep    string `json:"deep"`
	Skipped string `json:"-"`
	NoTag   bool
}

// TestDecodeValueEmbedded covers a host's parameter struct built from
// embedded structs, against encoding/json.
func TestDecodeValueEmbedded(t *testing.T) {
	t.Parallel()
	v := map[string]any{"shared": "s", "deep": "outer", "extra": json.Number("4"), "Skipped": "x", "-": "y", "NoTag": true}
	var got, want withEmbedded
	require.NoError(t, decodeValue(v, &got))
	js, err := json.Marshal(v)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(js, &want))
	assert.Equal(t, want, got)
	assert.Equal(t, "outer", got.Deep)
	assert.Empty(t, got.embeddedBase.Deep)
	require.NotNil(t, got.EmbeddedPtr)
	assert.Equal(t, 4, got.Extra)

	// A nil pointer to an unexported embedded struct cannot be allocated:
	// an error, as with encoding/json, not a panic.
	var hidden struct {
		*embeddedPtr
	}
	err = decodeValue(map[string]any{"hidden": json.Number("1")}, &hidden)
	require.EqualError(t, err, "hidden: cannot set embedded pointer to unexported struct in struct { *scenario.embeddedPtr }")
	assert.Error(t, json.Unmarshal([]byte(`{"hidden": 1}`), &hidden))
}

// TestFullScenarioRoundTrip writes the scenario with every kind of field
// back as JSON (Character extras, plugin forms, durations, evaluation
// parameters) and loads it again unchanged.
func TestFullScenarioRoundTrip(t *testing.T) {
	t.Parallel()
	f, err := NewLoader(testRegistries{}, Options{}).Load("full.scenario.yaml", []byte(equivalenceInputs["full.scenario.yaml"]))
	require.NoError(t, err)
	b, err := json.Marshal(f.Scenario)
	require.NoError(t, err)
	again, err := NewLoader(testRegistries{}, Options{}).Load("again.scenario.json", b)
	require.NoError(t, err, "%s", b)
	assert.Empty(t, again.Diagnostics.Errors())
	b2, err := json.Marshal(again.Scenario)
	require.NoError(t, err)
	assert.JSONEq(t, string(b), string(b2))
	assert.Equal(t, f.Scenario.Character, again.Scenario.Character)
	assert.Equal(t, f.Scenario.Setup, again.Scenario.Setup)
}
