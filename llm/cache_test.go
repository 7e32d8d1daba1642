package llm_test

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

	"github.com/agenteval/agenteval/llm"
)

const key1 = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

func TestDirCacheRoundTrip(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "nested", "cache")
	c, err := llm.NewDirCache(dir, nil)
	require.NoError(t, err)
	assert.DirExists(t, dir)
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
	c, err := llm.NewDirCache(t.TempDir(), nil)
	require.NoError(t, err)
	for _, k := range []string{"", "ab", "../../etc/passwd", "zz" + key1[2:], key1 + "0"} {
		_, _, err := c.Get(context.Background(), k)
		assert.Error(t, err, "%q", k)
		assert.Error(t, c.Put(context.Background(), k, nil), "%q", k)
	}
	_, err = llm.NewDirCache("", nil)
	assert.Error(t, err)
}

func TestDirCacheConcurrentWritersLeaveWholeEntries(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	c, err := llm.NewDirCache(dir, nil)
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
