package elizarun

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/agenteval/agenteval/results"
)

// File is one run file's name and bytes.
type File struct {
	Name string
	Data []byte
}

// Records turns ElizaOS run files into the records of one results file:
// a plan, then one job a run. A ScenarioRunResult of `scenario run`
// belongs to its parameters' scenario.file, its runs numbered in time
// order; a matrix run to the matrix folder its runs/ folder sits in (or
// the file's folder), combination by combination. The first file that is
// not a run file is an error naming it.
func Records(files []File) ([]byte, error) {
	type run struct {
		scenario, combination string
		start                 time.Time
		s                     ScenarioRun
	}
	runs := make([]run, 0, len(files))
	var names []string
	for _, f := range files {
		s, err := Decode(f.Name, f.Data)
		if err != nil {
			return nil, err
		}
		r := run{s: s, start: s.started()}
		file, _ := s.Parameters["scenario.file"].(string)
		switch {
		case strings.HasPrefix(s.CombinationID, "single-") && file != "":
			r.scenario, r.combination = file, "-"
		case s.startTime > 0: // a matrix run: its folder names the matrix
			dir := filepath.Dir(f.Name)
			if filepath.Base(dir) == "runs" {
				dir = filepath.Dir(dir)
			}
			r.scenario, r.combination = filepath.Base(dir), s.CombinationID
		default:
			r.scenario, r.combination = cmp.Or(file, filepath.Base(filepath.Dir(f.Name))), s.CombinationID
		}
		runs = append(runs, r)
		names = append(names, f.Name)
	}
	slices.SortStableFunc(runs, func(a, b run) int {
		return cmp.Or(strings.Compare(a.scenario, b.scenario), strings.Compare(a.combination, b.combination),
			a.start.Compare(b.start), strings.Compare(a.s.RunID, b.s.RunID))
	})
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	started := time.Time{}
	for _, r := range runs {
		if !r.start.IsZero() && (started.IsZero() || r.start.Before(started)) {
			started = r.start
		}
	}
	plan := results.Plan{Record: results.RecordPlan, RunID: "elizaos", Started: started.UTC(), TotalJobs: int64(len(runs)),
		ShardJobs: int64(len(runs)), Agent: "elizaos", Sources: names}
	if err := enc.Encode(plan); err != nil {
		return nil, fmt.Errorf("convert ElizaOS runs: %w", err)
	}
	n := 0
	for i, r := range runs {
		if i == 0 || r.scenario != runs[i-1].scenario || r.combination != runs[i-1].combination {
			n = 0
		}
		n++
		if err := enc.Encode(r.s.Job(r.scenario, r.combination, n, int64(i))); err != nil {
			return nil, fmt.Errorf("convert ElizaOS runs: %w", err)
		}
	}
	return buf.Bytes(), nil
}
