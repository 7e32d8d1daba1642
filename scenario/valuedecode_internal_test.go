package scenario

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

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
	for _, glob := range []string{"../../shared/peer/eliza/*.yaml", "../../shared/peer/ghx-scenarios/*.json"} {
		names, _ := filepath.Glob(glob)
		for _, n := range names {
			b, err := os.ReadFile(n)
			require.NoError(t, err)
			inputs[n] = b
		}
	}
	reg := DefaultRegistry()
	for name, src := range inputs {
		doc, ds := ParseDocument(name, src, Limits{})
		require.False(t, ds.HasErrors(), "%s: %v", name, ds)
		k := DetectKind(name, doc.Value)
		newTarget := map[Kind]func() any{
			KindScenario: func() any { return new(Scenario) }, KindGitHub: func() any { return new(GitHubScenario) },
			KindMatrix: func() any { return new(Matrix) }, KindManifest: func() any { return new(Manifest) },
			KindScenarioSets: func() any { return new(ScenarioSets) },
		}[k]
		require.NotNil(t, newTarget, name)
		viaValue, viaJSON := newTarget(), newTarget()
		require.NoError(t, decodeValue(doc.Value, viaValue), name)
		js, err := json.Marshal(doc.Value)
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal(js, viaJSON), name)
		for _, v := range []any{viaValue, viaJSON} {
			forEachEvaluation(v, func(e *Evaluation) {
				require.NoError(t, e.decodeParams(reg), name)
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
	case *GitHubScenario:
		for i := range x.Evaluations {
			fn(&x.Evaluations[i])
		}
	}
}

func TestDecodeValueErrors(t *testing.T) {
	t.Parallel()
	var s Scenario
	err := decodeValue(map[string]any{"name": 3, "run": []any{map[string]any{"timeout": true}}}, &s)
	require.EqualError(t, err, "name: cannot store number in string")
	var c Conversation
	require.EqualError(t, decodeValue(map[string]any{"max_turns": json.Number("1.5")}, &c), "max_turns: cannot store number 1.5 in int")
	var r RunStep
	require.EqualError(t, decodeValue(map[string]any{"timeout": "soon"}, &r), `timeout: invalid duration "soon": want milliseconds or a duration such as "30s"`)
}
