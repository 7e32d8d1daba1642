package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenteval/agenteval/internal/benchecho"
)

// BenchmarkRunEchoMatrixCLI is the CLI's side of bench/compare-promptfoo.sh's
// echo workload, in process: `agenteval run --agent echo` on a matrix of
// 10^4 inputs with three checks each, results written to disk. One op is a
// whole run, loading included (process start-up is not).
func BenchmarkRunEchoMatrixCLI(b *testing.B) {
	dir := b.TempDir()
	base, err := os.ReadFile("../bench/echo/base.scenario.yaml") // the script's echo workload
	if err != nil {
		b.Fatal(err)
	}
	const n = 10000
	if err := os.WriteFile(filepath.Join(dir, "base.scenario.yaml"), base, 0o644); err != nil {
		b.Fatal(err)
	}
	matrix := filepath.Join(dir, "m.matrix.yaml")
	if err := os.WriteFile(matrix, benchecho.Matrix(n), 0o644); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		out := filepath.Join(dir, fmt.Sprintf("out%d", i))
		env := &cliEnv{stdout: io.Discard, stderr: io.Discard, stdin: strings.NewReader(""), getenv: func(string) string { return "" }}
		if code := mainWith(context.Background(), env, []string{"run", "--agent", "echo", "--concurrency", "4", "--out", out, matrix}); code != 0 {
			b.Fatalf("exit %d", code)
		}
		b.StopTimer()
		os.RemoveAll(out)
		b.StartTimer()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/job")
}
