package judge_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/judge"
	"github.com/agenteval/agenteval/judge/judgetest"
)

func TestRecordedReplaysOffline(t *testing.T) {
	t.Parallel()
	srv := judgetest.NewServer(t)
	srv.Enqueue(judgetest.Text("first answer"))
	cache, err := judge.NewDirCache(t.TempDir())
	require.NoError(t, err)
	req := judge.Request{Messages: []judge.Message{{Role: judge.RoleUser, Content: "hi"}}}

	rec := &judge.Recorded{Model: srv.Model(), Cache: cache}
	resp, err := rec.Complete(t.Context(), req)
	require.NoError(t, err)
	assert.Equal(t, "first answer", resp.Content)
	again, err := rec.Complete(t.Context(), req)
	require.NoError(t, err)
	assert.Equal(t, "first answer", again.Content)
	assert.Len(t, srv.Requests(), 1, "the second identical request is answered from the recording")

	replay := &judge.Recorded{Model: srv.Model(), Name: judgetest.DefaultModel, Cache: cache, Replay: true}
	resp, err = replay.Complete(t.Context(), req)
	require.NoError(t, err)
	assert.Equal(t, "first answer", resp.Content)
	_, err = replay.Complete(t.Context(), judge.Request{Messages: []judge.Message{{Role: judge.RoleUser, Content: "new"}}})
	assert.ErrorIs(t, err, judge.ErrNotRecorded)
	assert.Len(t, srv.Requests(), 1, "replay never reaches the model")
}
