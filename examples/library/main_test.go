package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var goBlock = regexp.MustCompile("(?s)```go\n(.*?)```")

// TestREADMEShowsThisProgram keeps README.md's Go code true: every Go
// block of the README is the marked part of this program, which the next
// test runs.
func TestREADMEShowsThisProgram(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	src, err := os.ReadFile("main.go")
	require.NoError(t, err)
	text := string(src)
	begin := strings.Index(text, "// README:begin")
	end := strings.Index(text, "// README:end")
	require.True(t, begin >= 0 && end > begin, "main.go marks the part README.md shows")
	begin += strings.IndexByte(text[begin:], '\n') + 1
	shown := strings.TrimLeft(text[begin:end], "\n")
	blocks := goBlock.FindAllStringSubmatch(string(readme), -1)
	require.NotEmpty(t, blocks, "README.md has no Go block")
	for i, b := range blocks {
		assert.Equal(t, shown, b[1], "README.md's Go block %d is not examples/library/main.go's README part: a README snippet must compile and run in a test", i+1)
	}
}

// TestProgramRuns runs the program as a newcomer would, from a directory
// holding the example scenario: it writes a plan record and one passing
// record per job. (Not parallel: it changes directory.)
func TestProgramRuns(t *testing.T) {
	scen, err := os.ReadFile("../scenarios/weather.scenario.yaml")
	require.NoError(t, err)
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "examples", "scenarios"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "examples", "scenarios", "weather.scenario.yaml"), scen, 0o644))
	t.Chdir(dir)
	require.NoError(t, run(t.Context()))

	f, err := os.Open(filepath.Join(dir, "out", "results.jsonl"))
	require.NoError(t, err)
	defer f.Close()
	var records []map[string]any
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var r map[string]any
		require.NoError(t, json.Unmarshal(sc.Bytes(), &r))
		records = append(records, r)
	}
	require.Len(t, records, 4)
	assert.Equal(t, "plan", records[0]["record"])
	for _, r := range records[1:] {
		assert.Equal(t, "job", r["record"])
		assert.Equal(t, true, r["passed"], r["reason"])
	}
}
