package schemacheck

import (
	"os"
	"strings"
	"testing"

	santhosh "github.com/santhosh-tekuri/jsonschema/v6"
)

// scenarioDoc is a typical agent scenario as the loader hands it over.
const scenarioDoc = `{"name":"n","description":"d","environment":{"type":"local"},
"run":[{"input":"hi","evaluations":[{"type":"string_contains","value":"hi"},{"type":"regex_match","pattern":"h."},
{"type":"execution_time","max_duration_ms":1000}]}],"judgment":{"strategy":"all_pass"}}`

func scenarioSchema(b *testing.B) []byte {
	raw, err := os.ReadFile("../../scenario/schemas/scenario.schema.json")
	if err != nil {
		b.Fatal(err)
	}
	return raw
}

// BenchmarkCompileScenarioSchema compiles the committed scenario schema,
// with this package and with the validator it replaced.
func BenchmarkCompileScenarioSchema(b *testing.B) {
	raw := scenarioSchema(b)
	b.Run("schemacheck", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, _, err := CompileJSON(raw); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("santhosh", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			doc, err := santhosh.UnmarshalJSON(strings.NewReader(string(raw)))
			if err != nil {
				b.Fatal(err)
			}
			c := santhosh.NewCompiler()
			if err := c.AddResource("https://x.test/s.json", doc); err != nil {
				b.Fatal(err)
			}
			if _, err := c.Compile("https://x.test/s.json"); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkValidateScenario validates a typical scenario (valid) against
// the committed scenario schema.
func BenchmarkValidateScenario(b *testing.B) {
	raw := scenarioSchema(b)
	v := decode(b, scenarioDoc)
	b.Run("schemacheck", func(b *testing.B) {
		c, _, err := CompileJSON(raw)
		if err != nil {
			b.Fatal(err)
		}
		if err := c.Root().Validate(v); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			_ = c.Root().Validate(v)
		}
	})
	b.Run("santhosh", func(b *testing.B) {
		doc, _ := santhosh.UnmarshalJSON(strings.NewReader(string(raw)))
		c := santhosh.NewCompiler()
		_ = c.AddResource("https://x.test/s.json", doc)
		s, err := c.Compile("https://x.test/s.json")
		if err != nil {
			b.Fatal(err)
		}
		if err := s.Validate(v); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			_ = s.Validate(v)
		}
	})
}
