package judge_test

import (
	"context"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/judge"
	"github.com/agenteval/agenteval/llm"
)

func TestJudgeCorruptCacheEntryIsAMiss(t *testing.T) {
	t.Parallel()
	cache := llm.NewMemoryCache()
	calls := 0
	m := llm.ModelFunc(func(context.Context, llm.Request) (llm.Response, error) {
		calls++
		return llm.Response{Content: `{"pass": true, "score": 1, "reasoning": "fresh"}`}, nil
	})
	j := newJudge(t, m, func(c *judge.Config) { c.Cache = cache; c.ModelName = "fn" })
	in := judge.Input{Prompt: "Q", Evidence: "E", Expected: "yes"}
	_, err := j.Evaluate(context.Background(), in)
	require.NoError(t, err)
	require.Equal(t, 1, calls)

	// Corrupt every entry, then evaluate again: the judge asks anew.
	for _, k := range cacheKeys(cache) {
		require.NoError(t, cache.Put(context.Background(), k, []byte("not json")))
	}
	v, err := j.Evaluate(context.Background(), in)
	require.NoError(t, err)
	assert.Equal(t, 2, calls)
	assert.Equal(t, "fresh", v.Reasoning)
}

// cacheKeys returns the keys a judge uses for the standard input, by
// evaluating it again through a cache that records the keys it is asked for.
func cacheKeys(c llm.Cache) []string {
	spy := &spyCache{inner: c}
	m := llm.ModelFunc(func(context.Context, llm.Request) (llm.Response, error) {
		return llm.Response{Content: `{"pass": true}`}, nil
	})
	j, _ := judge.New(judge.Config{Model: m, ModelName: "fn", Cache: spy})
	_, _ = j.Evaluate(context.Background(), judge.Input{Prompt: "Q", Evidence: "E", Expected: "yes"})
	return spy.keys
}

type spyCache struct {
	inner llm.Cache
	mu    sync.Mutex
	keys  []string
}

func (s *spyCache) Get(ctx context.Context, key string) ([]byte, bool, error) {
	s.mu.Lock()
	s.keys = append(s.keys, key)
	s.mu.Unlock()
	return s.inner.Get(ctx, key)
}

func (s *spyCache) Put(ctx context.Context, key string, value []byte) error {
	return s.inner.Put(ctx, key, value)
}
