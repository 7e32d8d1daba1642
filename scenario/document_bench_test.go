package scenario_test

import (
	"testing"

	"github.com/agenteval/agenteval/internal/benchecho"
	"github.com/agenteval/agenteval/scenario"
)

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
	benchmarkParseDocument(b, "m.matrix.yaml", benchecho.Matrix(10_000))
}

// BenchmarkParseDocumentTypical parses a scenario of the usual size.
func BenchmarkParseDocumentTypical(b *testing.B) {
	benchmarkParseDocument(b, "typical.scenario.yaml", []byte(typicalScenario))
}
