package llm_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/llm/llmtest"
)

func TestRecordedReplaysOffline(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Text("first answer"))
	cache, err := llm.NewDirCache(t.TempDir(), nil)
	require.NoError(t, err)
	req := llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}}

	rec := &llm.Recorded{Model: srv.Model(), Cache: cache}
	resp, err := rec.Complete(t.Context(), req)
	require.NoError(t, err)
	assert.Equal(t, "first answer", resp.Content)
	again, err := rec.Complete(t.Context(), req)
	require.NoError(t, err)
	assert.Equal(t, "first answer", again.Content)
	assert.Len(t, srv.Requests(), 1, "the second identical request is answered from the recording")

	replay := &llm.Recorded{Model: srv.Model(), Name: srv.Config().Model, Cache: cache, Replay: true}
	resp, err = replay.Complete(t.Context(), req)
	require.NoError(t, err)
	assert.Equal(t, "first answer", resp.Content)
	_, err = replay.Complete(t.Context(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "new"}}})
	assert.ErrorIs(t, err, llm.ErrNotRecorded)
	assert.Len(t, srv.Requests(), 1, "replay never reaches the model")
}
