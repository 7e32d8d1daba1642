package results_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/agenteval/agenteval/results"
)

// Open takes the folder's lock and writes the plan record; Write streams
// one job record at a time (secrets masked); a later Open with Resume finds
// what the first run recorded, so a killed run is finished, not repeated.
func ExampleOpen() {
	dir, err := os.MkdirTemp("", "results-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "results.jsonl")
	plan := &results.Plan{RunID: "example", TotalJobs: 2}

	w, err := results.Open(path, plan, results.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	err = w.Write(&results.Job{ID: "weather/-/run-1", Scenario: "weather", Run: 1, Attempts: 1, Completed: true, Passed: true, Score: 1})
	fmt.Println("write:", err, "close:", w.Close())

	_, err = results.Open(path, plan, results.Options{})
	fmt.Println("again without Resume:", err != nil)
	w, err = results.Open(path, plan, results.Options{Resume: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer w.Close()
	o, ok := w.Outcome("weather/-/run-1")
	fmt.Println("recorded:", ok, "passed:", o.Passed, "jobs:", w.Tally().Jobs)
	// Output:
	// write: <nil> close: <nil>
	// again without Resume: true
	// recorded: true passed: true jobs: 1
}
