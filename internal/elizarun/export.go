package elizarun

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"iter"
	"os"
	"path/filepath"

	"github.com/agenteval/agenteval/results"
)

// Export writes jobs as ElizaOS run files into dir, which it creates and
// which must hold no run files yet: one run-NNNNNN.json a job (a
// ScenarioRunResult, what `elizaos report generate DIR` reads) and
// summary.json (a MatrixExecutionSummary whose combinations hold their
// runs as MatrixRunResults, as a matrix run's summary does). Jobs must come
// combination by combination (report's Jobs order); nothing is held but
// the combination being written, so memory does not grow with the jobs.
// It returns how many runs it wrote.
func Export(dir string, jobs iter.Seq2[*results.Job, error]) (n int, err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, fmt.Errorf("export ElizaOS runs: %w", err)
	}
	if old, _ := filepath.Glob(filepath.Join(dir, "run-*.json")); len(old) > 0 {
		return 0, fmt.Errorf("export ElizaOS runs: %s already holds run files (%s): give an empty or new folder", dir, filepath.Base(old[0]))
	}
	sumPath := filepath.Join(dir, "summary.json")
	if _, err := os.Stat(sumPath); err == nil {
		return 0, fmt.Errorf("export ElizaOS runs: %s already exists: give an empty or new folder", sumPath)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return 0, fmt.Errorf("export ElizaOS runs: %w", err)
	}
	f, err := os.OpenFile(sumPath, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return 0, fmt.Errorf("export ElizaOS runs: %w", err)
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("export ElizaOS runs: %w", cerr)
		}
	}()
	w := &summaryWriter{bw: bufio.NewWriter(f)}
	w.raw(`{"combinations":[`)
	var sum Summary
	var c *Combination
	endCombination := func() {
		if c != nil {
			w.raw("],")
			w.fields(c)
		}
	}
	for j, jerr := range jobs {
		if jerr != nil {
			return n, fmt.Errorf("export ElizaOS runs: %w", jerr)
		}
		s := Scenario(j)
		if err := writeRun(filepath.Join(dir, fmt.Sprintf("run-%06d.json", n+1)), &s); err != nil {
			return n, err
		}
		n++
		m := Matrix(j)
		if c == nil || c.CombinationID != m.CombinationID {
			endCombination()
			if c != nil {
				w.raw(",")
			}
			c = &Combination{CombinationID: m.CombinationID, Parameters: m.Parameters}
			w.raw(`{"combinationId":`)
			w.value(c.CombinationID)
			w.raw(`,"parameters":`)
			w.value(c.Parameters)
			w.raw(`,"runs":[`)
		} else {
			w.raw(",")
		}
		w.value(&m)
		sum.Add(c, &m, j.Started)
	}
	endCombination()
	sum.Finish()
	w.raw("],")
	w.fields(&sum)
	w.raw("\n")
	if w.err == nil {
		w.err = w.bw.Flush()
	}
	if w.err != nil {
		return n, fmt.Errorf("export ElizaOS runs: %w", w.err)
	}
	return n, nil
}

// summaryWriter writes summary.json piece by piece, keeping the first error.
type summaryWriter struct {
	bw  *bufio.Writer
	err error
}

func (w *summaryWriter) raw(s string) {
	if w.err == nil {
		_, w.err = w.bw.WriteString(s)
	}
}

func (w *summaryWriter) value(v any) { w.json(v, false) }

// fields writes v's JSON object without its opening brace: its fields
// follow those already written in the same object, and it closes it.
func (w *summaryWriter) fields(v any) { w.json(v, true) }

func (w *summaryWriter) json(v any, inner bool) {
	if w.err != nil {
		return
	}
	b, err := json.Marshal(v)
	if err != nil {
		w.err = err
		return
	}
	if inner {
		b = b[1:]
	}
	_, w.err = w.bw.Write(b)
}

func writeRun(path string, s *ScenarioRun) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return fmt.Errorf("export ElizaOS runs: %s: %w", path, err)
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("export ElizaOS runs: %w", err)
	}
	return nil
}
