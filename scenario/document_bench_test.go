package scenario_test

import (
	"os"
	"testing"
	"testing/fstest"

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

// BenchmarkLoadEchoMatrix loads the echo workload's matrix file with its
// base scenario as the CLI does before any job starts: parse, schema check,
// decode, checks.
func BenchmarkLoadEchoMatrix(b *testing.B) {
	base, err := os.ReadFile("../bench/echo/base.scenario.yaml")
	if err != nil {
		b.Fatal(err)
	}
	data := benchecho.Matrix(10_000)
	fsys := fstest.MapFS{"m.matrix.yaml": {Data: data}, "base.scenario.yaml": {Data: base}}
	l := newLoader(scenario.Options{})
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := l.LoadFS(fsys, "m.matrix.yaml"); err != nil {
			b.Fatal(err)
		}
	}
}
