//go:build unix

package infile

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestOnlyRegularFilesAreRead(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.scenario.yaml")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	link := filepath.Join(dir, "zero.yaml")
	require.NoError(t, os.Symlink("/dev/zero", link))
	big := filepath.Join(dir, "big.yaml")
	require.NoError(t, os.WriteFile(big, make([]byte, 101), 0o644))
	ok := filepath.Join(dir, "ok.yaml")
	require.NoError(t, os.WriteFile(ok, []byte("name: x\n"), 0o644))
	for _, tc := range []struct {
		path string
		max  int64
		err  error
		says string
	}{
		{fifo, 0, ErrNotRegular, "a named pipe (FIFO)"},
		{link, 0, ErrNotRegular, "a device"},
		{"/dev/null", 0, ErrNotRegular, "a device"},
		{dir, 0, ErrNotRegular, "a directory"},
		{big, 100, ErrTooLarge, "more than 100 bytes"},
	} {
		start := time.Now()
		_, err := ReadFile(tc.path, tc.max)
		require.ErrorIs(t, err, tc.err, tc.path)
		assert.Contains(t, err.Error(), tc.path)
		assert.Contains(t, err.Error(), tc.says)
		assert.Less(t, time.Since(start), time.Second, "nothing blocks")
	}
	b, err := ReadFile(ok, 0)
	require.NoError(t, err)
	assert.Equal(t, "name: x\n", string(b))
	root, err := os.OpenRoot(dir)
	require.NoError(t, err)
	defer root.Close()
	_, err = OpenIn(root, "pipe.scenario.yaml")
	require.ErrorIs(t, err, ErrNotRegular)
}
