package runner

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sync"
	"testing"

	"github.com/agenteval/agenteval/scenario"
)

// testLoader is one loader of the built-in registries, shared by the tests
// so that its schemas compile once.
var testLoader = sync.OnceValue(func() *scenario.Loader { return scenario.NewLoader(NewRegistries(), scenario.Options{}) })

// testLoad loads a document from bytes with testLoader.
func testLoad(name string, data []byte) (*scenario.File, error) { return testLoader().Load(name, data) }

// testLoadFile loads a file from disk with testLoader.
func testLoadFile(name string) (*scenario.File, error) { return testLoader().LoadFile(name) }

// recordedIDs returns the ids of the job records in the results file at
// path, passing over a torn last line (no newline) as a resume does, and
// failing on any other line that is not a record.
func recordedIDs(t testing.TB, path string) (map[string]bool, string, error) {
	t.Helper()
	ids := map[string]bool{}
	f, err := os.Open(path)
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	r := bufio.NewReader(f)
	runID := ""
	for line := 1; ; line++ {
		b, err := r.ReadBytes('\n')
		if len(b) > 0 && b[len(b)-1] == '\n' {
			var rec struct{ Record, ID, RunID string }
			if jerr := json.Unmarshal(b, &rec); jerr != nil || rec.Record == "" {
				return nil, "", fmt.Errorf("%s:%d: not a record: %v", path, line, jerr)
			}
			if rec.Record == "job" {
				ids[rec.ID] = true
			}
		}
		if err != nil {
			return ids, runID, nil
		}
	}
}

// echoAgent replies with the message it was sent: the runner's own tests
// measure and check the driver with it (package agent/echo is the built-in
// one, above runner).
type echoAgent struct{}

// Cooperative: like agent/echo, it returns at once (BenchmarkRunFunc
// measures the guarded path).
func (echoAgent) Cooperative() bool { return true }

func (echoAgent) NewSession(context.Context, SessionConfig) (Session, error) {
	return echoSession{}, nil
}

type echoSession struct{}

func (echoSession) Send(_ context.Context, m string) (Reply, error) { return Reply{Text: m}, nil }
func (echoSession) Close() error                                    { return nil }
