package yamlfast

import (
	"bytes"
	"os"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/agenteval/agenteval/internal/benchecho"
)

func benchInputs(b *testing.B) map[string][]byte {
	scenario, err := os.ReadFile("../../bench/echo/base.scenario.yaml")
	if err != nil {
		b.Fatal(err)
	}
	return map[string][]byte{"EchoMatrix": benchecho.Matrix(10_000), "EchoScenario": scenario}
}

func BenchmarkParse(b *testing.B) {
	for name, data := range benchInputs(b) {
		b.Run(name, func(b *testing.B) {
			if _, ok := Parse(data); !ok {
				b.Fatal("not handled")
			}
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				Parse(data)
			}
		})
	}
}

// BenchmarkYAMLv3 is the same work done by yaml.v3's Decoder, to compare.
func BenchmarkYAMLv3(b *testing.B) {
	for name, data := range benchInputs(b) {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				var n yaml.Node
				if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&n); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
