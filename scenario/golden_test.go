package scenario_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/scenario"
)

// archive is a txtar archive: a comment, then files introduced by
// "-- name --" lines.
type archive struct {
	comment string
	files   []archiveFile
}

type archiveFile struct {
	name string
	data []byte
}

func parseArchive(data []byte) archive {
	var a archive
	var cur *archiveFile
	var comment bytes.Buffer
	for line := range bytes.Lines(data) {
		trimmed := bytes.TrimRight(line, "\r\n")
		if bytes.HasPrefix(trimmed, []byte("-- ")) && bytes.HasSuffix(trimmed, []byte(" --")) && len(trimmed) > 6 {
			a.files = append(a.files, archiveFile{name: string(trimmed[3 : len(trimmed)-3])})
			cur = &a.files[len(a.files)-1]
			continue
		}
		if cur == nil {
			comment.Write(line)
		} else {
			cur.data = append(cur.data, line...)
		}
	}
	a.comment = comment.String()
	return a
}

func (a archive) format() []byte {
	var b bytes.Buffer
	b.WriteString(a.comment)
	for _, f := range a.files {
		fmt.Fprintf(&b, "-- %s --\n", f.name)
		b.Write(f.data)
		if len(f.data) > 0 && f.data[len(f.data)-1] != '\n' {
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
}

// options reads "strict", "scorers-elsewhere" and "maxbytes=N" from the comment's "options:" line.
func (a archive) options(t *testing.T) scenario.Options {
	var o scenario.Options
	for line := range strings.Lines(a.comment) {
		rest, ok := strings.CutPrefix(strings.TrimSpace(line), "options:")
		if !ok {
			continue
		}
		for _, f := range strings.Fields(rest) {
			k, v, _ := strings.Cut(f, "=")
			switch k {
			case "strict":
				o.Strict = true
			case "scorers-elsewhere":
				o.ScorersElsewhere = true
			case "maxbytes":
				n, err := strconv.Atoi(v)
				require.NoError(t, err)
				o.Limits.MaxBytes = n
			default:
				t.Fatalf("unknown option %q", f)
			}
		}
	}
	return o
}

// formatDiagnostics prints one diagnostic a line with its code, the form the
// golden files hold.
func formatDiagnostics(ds scenario.Diagnostics) []byte {
	var b bytes.Buffer
	for _, d := range ds {
		fmt.Fprintf(&b, "%s [%s]\n", d, d.Code)
	}
	return b.Bytes()
}

// TestDiagnostics loads the files of each testdata/diag/*.txtar archive as one
// directory and compares every diagnostic (file, line, column, severity,
// path, message, suggestion and code) with the archive's "want" section.
// Run with -update to rewrite the want sections after a deliberate change.
func TestDiagnostics(t *testing.T) {
	t.Parallel()
	names, err := filepath.Glob("testdata/diag/*.txtar")
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(names), 25)
	for _, name := range names {
		t.Run(strings.TrimSuffix(filepath.Base(name), ".txtar"), func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(name)
			require.NoError(t, err)
			a := parseArchive(data)
			fsys := fstest.MapFS{}
			wantIdx := -1
			for i, f := range a.files {
				if f.name == "want" {
					wantIdx = i
					continue
				}
				fsys[f.name] = &fstest.MapFile{Data: f.data}
			}
			set, err := newLoader(a.options(t)).LoadDirFS(fsys, ".")
			require.NotNil(t, set)
			got := formatDiagnostics(set.Diagnostics)
			assert.Equal(t, set.Diagnostics.HasErrors(), err != nil)
			if scenario.UpdateGolden() {
				if wantIdx < 0 {
					a.files = append(a.files, archiveFile{name: "want"})
					wantIdx = len(a.files) - 1
				}
				a.files[wantIdx].data = got
				require.NoError(t, os.WriteFile(name, a.format(), 0o644))
				return
			}
			require.GreaterOrEqual(t, wantIdx, 0, "no want section; run with -update")
			assert.Equal(t, string(a.files[wantIdx].data), string(got))
		})
	}
}
