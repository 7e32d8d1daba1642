package scenario_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agenteval/agenteval/scenario"
)

// echoMatrix is bench/compare-promptfoo.sh's matrix file: 10^4 values.
func echoMatrix() []byte {
	var m strings.Builder
	m.WriteString("name: m\ndescription: N inputs\nbase_scenario: base.scenario.yaml\nmatrix:\n  - parameter: \"run[0].input\"\n    values:\n")
	for i := range 10000 {
		fmt.Fprintf(&m, "      - \"Question %d: what is topic-%d?\"\n", i, i)
	}
	return []byte(m.String())
}

func benchmarkParseDocument(b *testing.B, name string, data []byte) {
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, ds := scenario.ParseDocument(name, data, scenario.Limits{}); ds.HasErrors() {
			b.Fatal(ds)
		}
	}
}

// BenchmarkParseDocumentEchoMatrix parses the echo workload's matrix file.
func BenchmarkParseDocumentEchoMatrix(b *testing.B) {
	benchmarkParseDocument(b, "m.matrix.yaml", echoMatrix())
}

// BenchmarkParseDocumentTypical parses a scenario of the usual size.
func BenchmarkParseDocumentTypical(b *testing.B) {
	benchmarkParseDocument(b, "typical.scenario.yaml", []byte(typicalScenario))
}
