package redact_test

import (
	"strings"
	"testing"

	"github.com/agenteval/agenteval/redact"
)

// benchRedactor knows as many secrets as a CI environment typically holds.
func benchRedactor() *redact.Redactor {
	return redact.FromEnvironment([]string{
		"GITHUB_TOKEN=" + token, "GH_TOKEN=" + token, "OPENAI_API_KEY=sk-bench-key-0123456789abcdef",
		"OPENAI_BASE_URL=https://user:bench-password@llm.example/v1", "NPM_TOKEN=npm_0123456789abcdefghij", "AWS_SECRET_ACCESS_KEY=abcdEFGH1234/ijklMNOP5678",
	})
}

// benchLine is a job record of the usual size (~1 KiB).
var benchLine = []byte(`{"record":"job","id":"examples/simple-test/c-44b05dbc1c5d0f7e/run-1","index":17,"scenario":"examples/test-github-issues","scenario_name":"Test A","matrix":"Simple Test Matrix","combination":"c-44b05dbc1c5d0f7e","params":{"name":"Test A"},"run":1,"attempts":1,"completed":true,"passed":false,"score":0.5,"reason":"1 of 2 evaluations passed","strategy":"all_pass","evaluations":[{"type":"string_contains","description":"Agent should mention the issues","passed":true,"score":1,"message":"found \"issues\""},{"type":"llm_judge","description":"judge","passed":false,"score":0,"message":"` + strings.Repeat("the agent listed issues but did not summarise them. ", 10) + `"}],"started":"2026-11-24T16:00:00Z","duration_ms":12.5,"usage":{"prompt_tokens":120,"completion_tokens":80,"total_tokens":200}}` + "\n")

func BenchmarkRedactJSONClean(b *testing.B) {
	r := benchRedactor()
	b.SetBytes(int64(len(benchLine)))
	b.ReportAllocs()
	for b.Loop() {
		_ = r.JSON(benchLine)
	}
}

func BenchmarkRedactJSONWithSecret(b *testing.B) {
	r := benchRedactor()
	line := []byte(strings.Replace(string(benchLine), "did not summarise", "printed "+token+" and", 1))
	b.SetBytes(int64(len(line)))
	b.ReportAllocs()
	for b.Loop() {
		_ = r.JSON(line)
	}
}

func BenchmarkRedactTextClean(b *testing.B) {
	r := benchRedactor()
	line := []byte("2000/10000 jobs  1990 passed  10 failed  0 incomplete  pass 99.5%  38000 jobs/s  ETA 1s\n")
	b.SetBytes(int64(len(line)))
	b.ReportAllocs()
	for b.Loop() {
		_ = r.Bytes(line)
	}
}
