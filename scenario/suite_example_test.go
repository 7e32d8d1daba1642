package scenario_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/agenteval/agenteval"
	"github.com/agenteval/agenteval/scenario"
)

// A suite names the agents to compare, their models and the scenarios;
// LoadSuite reads it (or ghx's eval.config.yaml, whose modes get their
// specs from the map) with the loader's positioned diagnostics.
func ExampleLoader_LoadSuite() {
	dir, _ := os.MkdirTemp("", "suite")
	defer os.RemoveAll(dir)
	name := filepath.Join(dir, "compare.suite.yaml")
	_ = os.WriteFile(name, []byte(`agents:
  - name: candidate
    agent: exec:./my-agent
  - name: baseline
    agent: echo
models:
  - id: gpt-4o-mini
scenarios:
  paths: [scenarios]
  tags: [smoke]
repetitions: 3
`), 0o644)
	l := scenario.NewLoader(agenteval.New().Registries, scenario.Options{})
	s, _, err := l.LoadSuite(name, map[string]string{"candidate": "exec:./my-agent --fast"})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, a := range s.Agents {
		fmt.Println(a.Name, a.Agent)
	}
	fmt.Println(s.Repetitions, s.Models[0].ID, s.Scenarios.Tags)
	// Output:
	// candidate exec:./my-agent --fast
	// baseline echo
	// 3 gpt-4o-mini [smoke]
}
