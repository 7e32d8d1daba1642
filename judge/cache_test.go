package judge_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/judge"
	"github.com/agenteval/agenteval/redact"
)

const key1 = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

func TestDirCacheRoundTrip(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "nested", "cache")
	c, err := judge.NewDirCache(dir)
	require.NoError(t, err)
	assert.Equal(t, dir, c.Dir())
	ctx := context.Background()

	_, ok, err := c.Get(ctx, key1)
	require.NoError(t, err)
	assert.False(t, ok)

	require.NoError(t, c.Put(ctx, key1, []byte(`{"a":1}`)))
	got, ok, err := c.Get(ctx, key1)
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, `{"a":1}`, string(got))
	assert.FileExists(t, filepath.Join(dir, "01", key1+".json"))

	require.NoError(t, c.Put(ctx, key1, []byte(`{"a":2}`)), "overwriting is allowed")
	got, _, _ = c.Get(ctx, key1)
	assert.Equal(t, `{"a":2}`, string(got))
}

func TestDirCacheRejectsBadKeys(t *testing.T) {
	t.Parallel()
	c, err := judge.NewDirCache(t.TempDir())
	require.NoError(t, err)
	for _, k := range []string{"", "ab", "../../etc/passwd", "zz" + key1[2:], key1 + "0"} {
		_, _, err := c.Get(context.Background(), k)
		assert.Error(t, err, "%q", k)
		assert.Error(t, c.Put(context.Background(), k, nil), "%q", k)
	}
	_, err = judge.NewDirCache("")
	assert.Error(t, err)
}

func TestDirCacheConcurrentWritersLeaveWholeEntries(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	c, err := judge.NewDirCache(dir)
	require.NoError(t, err)
	ctx := context.Background()
	values := make([]string, 8)
	for i := range values {
		values[i] = fmt.Sprintf(`{"writer":%d,"pad":%q}`, i, strings.Repeat("x", 64<<10))
	}
	var wg sync.WaitGroup
	for i := range 64 {
		wg.Go(func() {
			assert.NoError(t, c.Put(ctx, key1, []byte(values[i%len(values)])))
		})
		wg.Go(func() {
			got, ok, err := c.Get(ctx, key1)
			assert.NoError(t, err)
			if ok {
				assert.Contains(t, values, string(got), "a reader never sees a partial entry")
			}
		})
	}
	wg.Wait()
	entries, err := os.ReadDir(filepath.Join(dir, key1[:2]))
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no temporary files are left behind")
}

func TestMemoryCacheCopiesValues(t *testing.T) {
	t.Parallel()
	var c judge.MemoryCache // the zero value is usable
	v := []byte("abc")
	require.NoError(t, c.Put(context.Background(), "k", v))
	v[0] = 'X'
	got, ok, err := c.Get(context.Background(), "k")
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, "abc", string(got))
	assert.Equal(t, 1, c.Len())
}

func TestJudgeCorruptCacheEntryIsAMiss(t *testing.T) {
	t.Parallel()
	cache := judge.NewMemoryCache()
	calls := 0
	m := judge.ModelFunc(func(context.Context, judge.Request) (judge.Response, error) {
		calls++
		return judge.Response{Content: `{"pass": true, "score": 1, "reasoning": "fresh"}`}, nil
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
func cacheKeys(c *judge.MemoryCache) []string {
	spy := &spyCache{inner: c}
	m := judge.ModelFunc(func(context.Context, judge.Request) (judge.Response, error) {
		return judge.Response{Content: `{"pass": true}`}, nil
	})
	j, _ := judge.New(judge.Config{Model: m, ModelName: "fn", Cache: spy})
	_, _ = j.Evaluate(context.Background(), judge.Input{Prompt: "Q", Evidence: "E", Expected: "yes"})
	return spy.keys
}

type spyCache struct {
	inner judge.Cache
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

// TestDirCacheMasksSecrets: a model reply that echoes a key is stored with
// the key masked (judge cache and --record cassettes alike), as valid JSON.
func TestDirCacheMasksSecrets(t *testing.T) {
	t.Parallel()
	c, err := judge.NewDirCache(t.TempDir())
	require.NoError(t, err)
	c.Redactor = redact.New("sk-cache-secret-123")
	ctx := context.Background()
	require.NoError(t, c.Put(ctx, key1, []byte(`{"content":"your key is sk-cache-secret-123"}`)))
	got, ok, err := c.Get(ctx, key1)
	require.NoError(t, err)
	require.True(t, ok)
	assert.JSONEq(t, `{"content":"your key is [REDACTED]"}`, string(got))
}
