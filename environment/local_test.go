package environment

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/scenario"
)

func TestLocalPrepare(t *testing.T) {
	t.Parallel()
	local, ok := NewRegistry().Lookup("local")
	require.True(t, ok)
	tests := []struct {
		name    string
		req     Request
		files   map[string]string // relative to Dir
		noDir   bool
		wantErr string
	}{
		{name: "no directory needed", req: Request{JobID: "a", Scenario: &scenario.Scenario{}}, noDir: true},
		{name: "virtual_fs written", req: Request{JobID: "b/c", NeedDir: true, Scenario: &scenario.Scenario{
			Setup: &scenario.Setup{VirtualFS: map[string]string{"data.json": "{}", "sub/x.txt": "x"}}}},
			files: map[string]string{"data.json": "{}", "sub/x.txt": "x"}},
		{name: "working directory", req: Request{JobID: "d", NeedDir: true, Scenario: &scenario.Scenario{
			Environment: scenario.Environment{Setup: &scenario.EnvironmentSetup{WorkingDirectory: "repo"}},
			Setup:       &scenario.Setup{VirtualFS: map[string]string{"f": "1"}}}},
			files: map[string]string{"f": "1"}},
		{name: "virtual_fs escape refused", req: Request{JobID: "e", NeedDir: true, Scenario: &scenario.Scenario{
			Setup: &scenario.Setup{VirtualFS: map[string]string{"../out": "x"}}}}, wantErr: "setup.virtual_fs"},
		{name: "working directory escape refused", req: Request{JobID: "f", NeedDir: true, Scenario: &scenario.Scenario{
			Environment: scenario.Environment{Setup: &scenario.EnvironmentSetup{WorkingDirectory: "/etc"}}}}, wantErr: "workingDirectory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			base := t.TempDir()
			tt.req.BaseDir = base
			ws, err := local.Prepare(context.Background(), tt.req)
			if tt.wantErr != "" {
				require.ErrorContains(t, err, tt.wantErr)
				left, _ := os.ReadDir(base)
				assert.Empty(t, left, "a failed prepare leaves nothing behind")
				return
			}
			require.NoError(t, err)
			if tt.noDir {
				assert.Empty(t, ws.Dir())
				require.NoError(t, ws.Close())
				return
			}
			require.True(t, strings.HasPrefix(ws.Dir(), base), ws.Dir())
			for name, want := range tt.files {
				b, err := os.ReadFile(filepath.Join(ws.Dir(), filepath.FromSlash(name)))
				require.NoError(t, err)
				assert.Equal(t, want, string(b))
			}
			require.NoError(t, ws.Close())
			left, _ := os.ReadDir(base)
			assert.Empty(t, left, "Close removes the run's directory")
		})
	}
}

func TestLocalKeep(t *testing.T) {
	t.Parallel()
	local, _ := NewRegistry().Lookup("local")
	base := t.TempDir()
	ws, err := local.Prepare(context.Background(), Request{JobID: "k", NeedDir: true, BaseDir: base, Keep: true, Scenario: &scenario.Scenario{}})
	require.NoError(t, err)
	require.NoError(t, ws.Close())
	assert.DirExists(t, ws.Dir())
}

func TestLocalRunCode(t *testing.T) {
	t.Parallel()
	local, _ := NewRegistry().Lookup("local")
	ws, err := local.Prepare(context.Background(), Request{JobID: "r", NeedDir: true, BaseDir: t.TempDir(), Scenario: &scenario.Scenario{}})
	require.NoError(t, err)
	defer ws.Close()
	out, err := ws.RunCode(context.Background(), "sh", "pwd; echo oops >&2; exit 3")
	require.NoError(t, err)
	assert.Equal(t, 3, out.ExitCode)
	assert.Equal(t, "oops\n", out.Stderr)
	wd, _ := filepath.EvalSymlinks(ws.Dir())
	got, _ := filepath.EvalSymlinks(strings.TrimSpace(out.Stdout))
	assert.Equal(t, wd, got, "code runs in the workspace")
	_, err = ws.RunCode(context.Background(), "cobol", "x")
	assert.ErrorContains(t, err, `unknown lang "cobol"`)
}

func TestHeadBuffer(t *testing.T) {
	t.Parallel()
	h := newHeadBuffer(4)
	for _, p := range []string{"ab", "cde", "fgh"} {
		n, err := h.Write([]byte(p))
		require.NoError(t, err)
		assert.Equal(t, len(p), n, "a head buffer never fails its writer")
	}
	assert.Equal(t, "abcd", h.String())
	assert.Equal(t, int64(4), h.dropped)
}

func TestE2BHasNoProvider(t *testing.T) {
	t.Parallel()
	e2b, ok := NewRegistry().Lookup("e2b")
	require.True(t, ok)
	assert.Nil(t, e2b.Prepare)
}
