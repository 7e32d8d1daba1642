package matrix

import (
	"context"
	"os"
	"runtime"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/internal/testvocab"
	"github.com/agenteval/agenteval/scenario"
)

// TestExpansionMemoryIsFlat expands 10^5 jobs with scenarios and checks
// that the live heap after the last job is no larger than after the
// first thousand: nothing accumulates per job.
func TestExpansionMemoryIsFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("expands 10^5 jobs")
	}
	base, err := os.ReadFile("testdata/base.scenario.yaml")
	require.NoError(t, err)
	fsys := fstest.MapFS{"base.scenario.yaml": {Data: base}, "m.matrix.yaml": {Data: []byte(benchMatrix([]int{10, 10, 10, 100}))}}
	l := scenario.NewLoader(testvocab.Registries(), scenario.Options{})
	f, _ := l.LoadFS(fsys, "m.matrix.yaml")
	p, diags := Compile(f, Options{MaxJobs: 0})
	require.False(t, diags.HasErrors(), "%v", diags)
	live := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	var early, late uint64
	n := 0
	for j, err := range p.Jobs(context.Background()) {
		require.NoError(t, err)
		n++
		if n == 1000 {
			early = live()
		}
		_ = j
	}
	late = live()
	assert.Equal(t, 100_000, n)
	t.Logf("live heap after 1e3 jobs: %d KiB, after 1e5: %d KiB", early>>10, late>>10)
	assert.Less(t, late, early+1<<20, "live heap grew by more than 1 MiB over 10^5 jobs")
}
