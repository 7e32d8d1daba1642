package scenario_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/scenario"
)

// typicalScenario is a scenario of the usual size: plugins, a virtual file,
// a mock, an input step with several evaluations and a conversation.
const typicalScenario = `name: Typical
description: A scenario of the usual size.
plugins:
  - "@elizaos/plugin-sql"
  - name: "@elizaos/plugin-github"
    enabled: true
environment:
  type: local
setup:
  virtual_fs:
    data.json: '{"name": "test", "value": 42}'
  mocks:
    - service: github
      method: listIssues
      response: [{"number": 1, "title": "Bug"}]
      metadata:
        probability: 0.5
run:
  - name: ask
    input: List the open issues of acme/widgets
    timeout: 30s
    evaluations:
      - type: string_contains
        value: issues
      - type: regex_match
        pattern: "#[0-9]+"
      - type: trajectory_contains_action
        action: LIST_GITHUB_ISSUES
      - type: llm_judge
        prompt: Did the agent list the issues?
        expected: "yes"
        capabilities: [lists issues, is concise]
  - name: chat
    input: I need help with a bug
    conversation:
      max_turns: 4
      user_simulator:
        persona: a developer
        objective: get the bug fixed
      termination_conditions:
        - type: user_expresses_satisfaction
          keywords: [thanks]
      final_evaluations:
        - type: conversation_length
          target_range: [2, 4]
        - type: user_satisfaction
judgment:
  strategy: all_pass
`

// bigScenario returns a scenario of at least size bytes: many steps, each
// with a few evaluations.
func bigScenario(size int) []byte {
	var b strings.Builder
	b.WriteString("name: Big\ndescription: A large generated scenario.\nenvironment:\n  type: local\nrun:\n")
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, `  - name: step %d
    input: "Please do task number %d and report back with details"
    evaluations:
      - type: string_contains
        value: "done %d"
      - type: regex_match
        pattern: "task [0-9]+"
      - type: llm_judge
        prompt: "Did the agent finish task %d?"
        expected: "yes"
`, i, i, i, i)
	}
	b.WriteString("judgment:\n  strategy: all_pass\n")
	return []byte(b.String())
}

func TestBenchmarkInputsAreValid(t *testing.T) {
	t.Parallel()
	f, err := load("typical.scenario.yaml", []byte(typicalScenario))
	require.NoError(t, err)
	require.Empty(t, f.Diagnostics)
	if testing.Short() {
		return
	}
	big := bigScenario(1 << 20)
	f, err = load("big.scenario.yaml", big)
	require.NoError(t, err)
	require.Empty(t, f.Diagnostics)
	require.Greater(t, len(f.Scenario.Run), 1000)
}

func BenchmarkLoadTypical(b *testing.B) {
	data := []byte(typicalScenario)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := load("typical.scenario.yaml", data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLoad1MiB(b *testing.B) {
	data := bigScenario(1 << 20)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := load("big.scenario.yaml", data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseDocument1MiB(b *testing.B) {
	data := bigScenario(1 << 20)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, ds := scenario.ParseDocument("big.scenario.yaml", data, scenario.Limits{}); ds.HasErrors() {
			b.Fatal(ds)
		}
	}
}

// BenchmarkNewLoaderFirstLoad measures a loader's first load, which
// compiles the schema.
func BenchmarkNewLoaderFirstLoad(b *testing.B) {
	data := []byte(typicalScenario)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := newLoader(scenario.Options{}).Load("typical.scenario.yaml", data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoadCorpusTrees loads the real upstream trees of the corpus as
// validate reads them: ElizaOS's last packages/cli (scenarios, matrices with
// their bases) and ghx's HEAD scenarios directory (its sets file checked
// against the scenarios beside it).
func BenchmarkLoadCorpusTrees(b *testing.B) {
	for _, dir := range []string{"../testdata/corpus/eliza-8760409", "../testdata/corpus/ghx-f128993"} {
		b.Run(filepath.Base(dir), func(b *testing.B) {
			l := newLoader(scenario.Options{})
			b.ReportAllocs()
			for b.Loop() {
				set, _ := l.LoadDir(dir)
				if set == nil || len(set.Files) == 0 {
					b.Fatal("nothing loaded")
				}
			}
		})
	}
}
