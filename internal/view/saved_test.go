package view

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/results"
)

// answers is what a server says about its one run: the first page with
// facets, a filtered page, a parameter filter, the groups.
func answers(t *testing.T, s *Server) string {
	t.Helper()
	r := s.runs[0]
	var out []any
	for _, q := range []query{{Limit: 20}, {Status: "failed", Limit: 20}, {Params: []string{"vars.city=Paris"}, Failing: "tool_called", Limit: 20},
		{Sort: "duration", Desc: true, Limit: 20}} {
		p, err := r.query(q)
		require.NoError(t, err)
		out = append(out, p)
	}
	gs, err := r.groups(100)
	require.NoError(t, err)
	out = append(out, gs, r.summary().Recorded, r.summary().Failed)
	b, err := json.Marshal(out)
	require.NoError(t, err)
	return string(b)
}

func open(t *testing.T, dir string) *Server {
	t.Helper()
	s, err := New(Options{Paths: []string{dir}})
	require.NoError(t, err)
	t.Cleanup(s.Close)
	return s
}

// The index is saved beside the results on first open and read instead of
// the records the next time, with the same answers; a file that grew is
// read on from where its index ends; a changed file or a broken index is
// read afresh.
func TestTheIndexIsSavedAndReused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := writeResults(t, dir, "s", 64, suiteJob)
	first := open(t, dir)
	assert.False(t, first.runs[0].files[0].fromSaved)
	_, err := os.Stat(path + savedSuffix)
	require.NoError(t, err, "the index is saved beside the results")
	want := answers(t, first)

	second := open(t, dir)
	assert.True(t, second.runs[0].files[0].fromSaved, "read from the saved index")
	assert.Equal(t, want, answers(t, second))

	// The file grows (a resumed run): the index covers the start.
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	j := jobOf(64)
	j.Index = 64
	suiteJob(j)
	j.ID = "a/m1/greet/c-0/run-99"
	b, err := results.AppendJob(nil, j)
	require.NoError(t, err)
	_, err = f.Write(append(b, '\n'))
	require.NoError(t, err)
	require.NoError(t, f.Close())
	grown := open(t, dir)
	assert.True(t, grown.runs[0].files[0].fromSaved)
	assert.Equal(t, 65, grown.runs[0].summary().Recorded, "and the rest is read")
	assert.Equal(t, open(t, dir).runs[0].summary(), grown.runs[0].summary())

	// Another run written over it: the index is stale.
	writeResults(t, dir, "s", 40, suiteJob)
	fresh := open(t, dir)
	assert.False(t, fresh.runs[0].files[0].fromSaved, "a changed file is read afresh")
	assert.Equal(t, 40, fresh.runs[0].summary().Recorded)

	// A broken index is ignored.
	idx, err := os.ReadFile(path + savedSuffix)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path+savedSuffix, idx[:len(idx)/2], 0o644))
	cut := open(t, dir)
	assert.Equal(t, 40, cut.runs[0].summary().Recorded)
	require.NoError(t, os.WriteFile(path+savedSuffix, []byte("nonsense"), 0o644))
	assert.Equal(t, 40, open(t, dir).runs[0].summary().Recorded)
}
