package llm_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/llm/llmtest"
	"github.com/agenteval/agenteval/redact"
)

func ask(text string) llm.Request {
	return llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: text}}}
}

// Identical requests at different sites (jobs, samples, ordinals) each keep
// their own answer; recording always asks the model; replay never does.
func TestCassetteKeepsEveryCallsOwnAnswer(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	var n atomic.Int64
	srv.Handle(func(llmtest.Request) llmtest.Reply { return llmtest.Text("answer " + string(rune('a'+n.Add(1)-1))) })
	dir := t.TempDir()
	rec, err := llm.NewCassette(dir, false, redact.New())
	require.NoError(t, err)
	model := &llm.Recorded{Model: srv.Model(), Name: "m", Role: llm.CallerJudge, Cassette: rec}
	type call struct {
		job    string
		sample int
	}
	calls := []call{{"j1", 0}, {"j1", 0}, {"j1", 1}, {"j2", 0}}
	ctxs := map[string]context.Context{"j1": llm.WithJob(t.Context(), "j1", 1), "j2": llm.WithJob(t.Context(), "j2", 1)}
	var recorded []string
	for _, c := range calls {
		resp, err := model.Complete(llm.WithSample(ctxs[c.job], c.sample), ask("same"))
		require.NoError(t, err)
		recorded = append(recorded, resp.Content)
	}
	assert.Equal(t, []string{"answer a", "answer b", "answer c", "answer d"}, recorded)
	assert.Len(t, srv.Requests(), 4, "recording asks the model every time, never the cassette")

	play, err := llm.NewCassette(dir, true, redact.New())
	require.NoError(t, err)
	srv.Close()
	replay := &llm.Recorded{Name: "m", Role: llm.CallerJudge, Cassette: play}
	// Replayed in another order: each site still gets its own answer.
	ctxs = map[string]context.Context{"j1": llm.WithJob(t.Context(), "j1", 1), "j2": llm.WithJob(t.Context(), "j2", 1)}
	order := []int{3, 2, 0, 1}
	got := make([]string, len(calls))
	for _, i := range order {
		c := calls[i]
		resp, err := replay.Complete(llm.WithSample(ctxs[c.job], c.sample), ask("same"))
		require.NoError(t, err)
		got[i] = resp.Content
	}
	assert.Equal(t, recorded, got)
}

func TestCassetteReplayMissShowsTheDifference(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Text("hello"), llmtest.Error(401, "invalid_api_key", "bad key"))
	dir := t.TempDir()
	rec, err := llm.NewCassette(dir, false, redact.New("sk-secret-123"))
	require.NoError(t, err)
	ctx := llm.WithJob(t.Context(), "job", 1)
	m := &llm.Recorded{Model: srv.Model(), Name: "m", Role: llm.CallerAgent, Cassette: rec}
	_, err = m.Complete(ctx, ask("the key is sk-secret-123, say hi"))
	require.NoError(t, err)
	_, liveErr := m.Complete(ctx, ask("again"))
	require.Error(t, liveErr)

	// No secret reaches the cassette.
	require.NoError(t, filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		assert.NotContains(t, string(b), "sk-secret-123", p)
		return err
	}))

	play, err := llm.NewCassette(dir, true, redact.New("sk-secret-123"))
	require.NoError(t, err)
	ctx = llm.WithJob(t.Context(), "job", 1)
	r := &llm.Recorded{Name: "m", Role: llm.CallerAgent, Cassette: play}
	resp, err := r.Complete(ctx, ask("the key is sk-secret-123, say hi"))
	require.NoError(t, err, "the request matches once masked as it was stored")
	assert.Equal(t, "hello", resp.Content)
	_, err = r.Complete(ctx, ask("again"))
	var api *llm.APIError
	require.ErrorAs(t, err, &api, "a recorded failure replays with its class")
	assert.Equal(t, 401, api.StatusCode)
	assert.Equal(t, liveErr.Error(), err.Error())
	assert.NoError(t, llm.JobReplayMiss(ctx))

	_, err = r.Complete(ctx, ask("third"))
	require.ErrorIs(t, err, llm.ErrNotRecorded)
	assert.Contains(t, err.Error(), "nothing was recorded for agent call 2 in job job attempt 1")

	ctx = llm.WithJob(t.Context(), "job", 1)
	_, err = r.Complete(ctx, ask("the key is sk-secret-123, say hello"))
	require.ErrorIs(t, err, llm.ErrNotRecorded)
	assert.Contains(t, err.Error(), `messages[0].content: recorded "the key is [REDACTED], say hi", now "the key is [REDACTED], say hello"`)
	miss := llm.JobReplayMiss(ctx)
	require.Error(t, miss)
	assert.True(t, errors.Is(miss, llm.ErrNotRecorded))
	assert.False(t, strings.Contains(miss.Error(), "sk-secret"))
}

// Play records any answer, not only model calls (mock draws, checkpoint
// task results), and hands recording and replay the same decoded value.
func TestPlayRecordsAnyAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	rec, err := llm.NewCassette(dir, false, redact.New())
	require.NoError(t, err)
	ctx := llm.WithJob(t.Context(), "j", 2)
	live := func(context.Context) (any, error) { return map[string]any{"n": 3}, nil }
	got, err := llm.Play(ctx, rec, "checkpoint", "github", "pr.view", map[string]any{"pr": 1}, live)
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"n": 3.0}, got, "recording returns what replay will")

	play, err := llm.NewCassette(dir, true, redact.New())
	require.NoError(t, err)
	ctx = llm.WithJob(t.Context(), "j", 2)
	got, err = llm.Play(ctx, play, "checkpoint", "github", "pr.view", map[string]any{"pr": 1}, func(context.Context) (any, error) {
		t.Fatal("replay called the live answer")
		return nil, nil
	})
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"n": 3.0}, got)
}
