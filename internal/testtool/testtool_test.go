package testtool

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// recorder stands in for a test: it records how Need and Optional end it
// instead of ending the real one.
type recorder struct {
	testing.TB
	skipped, fatal, errored, logged string
}

func (r *recorder) Helper()                           {}
func (r *recorder) Skip(args ...any)                  { r.skipped = fmt.Sprint(args...) }
func (r *recorder) Fatalf(format string, args ...any) { r.fatal = fmt.Sprintf(format, args...) }
func (r *recorder) Errorf(format string, args ...any) { r.errored = fmt.Sprintf(format, args...) }
func (r *recorder) Log(args ...any)                   { r.logged = fmt.Sprint(args...) }

// TestMissingToolSkipsOrFailsInCI: a missing tool skips (Need) or logs
// (Optional) with its name and install command, and fails both under
// CI=true; a present tool's path is returned.
func TestMissingToolSkipsOrFailsInCI(t *testing.T) {
	bin := t.TempDir()
	xmllint := filepath.Join(bin, "xmllint")
	require.NoError(t, os.WriteFile(xmllint, []byte("#!/bin/sh\n"), 0o755))
	t.Setenv("PATH", bin)
	const (
		why  = "shellcheck is not installed (apt-get install shellcheck)"
		inCI = why + ": CI=true, where every tool must be installed (scripts/test.sh installs them)"
	)

	for _, tc := range []struct {
		ci                              string
		skipped, fatal, errored, logged string
	}{
		{ci: "", skipped: why + ": this test is skipped", logged: why + ": the check that needs it is not made"},
		{ci: "false", skipped: why + ": this test is skipped", logged: why + ": the check that needs it is not made"},
		{ci: "true", fatal: inCI, errored: inCI},
		{ci: "1", fatal: inCI, errored: inCI},
	} {
		t.Run("CI="+tc.ci, func(t *testing.T) {
			t.Setenv("CI", tc.ci)
			need := &recorder{TB: t}
			assert.Empty(t, Need(need, "shellcheck"))
			assert.Equal(t, tc.skipped, need.skipped)
			assert.Equal(t, tc.fatal, need.fatal)

			opt := &recorder{TB: t}
			assert.Empty(t, Optional(opt, "shellcheck"))
			assert.Equal(t, tc.errored, opt.errored)
			assert.Equal(t, tc.logged, opt.logged)
			assert.Empty(t, opt.skipped+opt.fatal, "Optional goes on")

			found := &recorder{TB: t}
			assert.Equal(t, xmllint, Need(found, "xmllint"))
			assert.Equal(t, xmllint, Optional(found, "xmllint"))
			assert.Equal(t, recorder{TB: t}, *found, "a present tool ends nothing")
		})
	}
}

// TestUnknownToolIsAnError: a name outside the table is a mistake in the
// test, reported with the names that exist.
func TestUnknownToolIsAnError(t *testing.T) {
	t.Parallel()
	r := &recorder{TB: t}
	Need(r, "xmlint")
	assert.Contains(t, r.fatal, `"xmlint" is not a known tool`)
	assert.Contains(t, r.fatal, "xmllint")
}
