package labels

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/results"
)

func TestReadTakesEachJobsLatestLabel(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), FileName)
	at := time.Date(2026, 11, 29, 1, 0, 0, 0, time.UTC)
	for _, l := range []Label{
		{ID: "a/-/run-1", Verdict: Fail, Note: "wrong city", At: at},
		{ID: "a/-/run-2", Verdict: Pass, At: at},
		{ID: "a/-/run-1", Verdict: Pass, Note: "on second thought, fine", At: at.Add(time.Minute)},
		{ID: "a/-/run-2", Verdict: Clear, At: at.Add(time.Minute)},
	} {
		require.NoError(t, Append(path, l))
	}
	got, err := Read(path)
	require.NoError(t, err)
	assert.Equal(t, map[string]Label{"a/-/run-1": {ID: "a/-/run-1", Verdict: Pass, Note: "on second thought, fine", At: at.Add(time.Minute)}}, got)

	none, err := Read(filepath.Join(t.TempDir(), FileName))
	require.NoError(t, err)
	assert.Nil(t, none, "no file: no labels")
}

func TestBadLabelsAreNamedByFileLineAndField(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, text, want string }{
		{"not JSON", "{\"id\":\"a\",\"verdict\":\"pass\"}\nnope\n", "labels.jsonl:2: invalid character"},
		{"bad verdict", `{"id":"a","verdict":"ok"}`, `labels.jsonl:1: verdict: "ok": want "pass", "fail" or "" (withdraw the review)`},
		{"no id", `{"verdict":"pass"}`, "labels.jsonl:1: id: empty"},
		{"wrong type", `{"id":"a","verdict":true}`, "labels.jsonl:1: verdict: bool, want string"},
		{"unknown field", `{"id":"a","verdict":"pass","verdit":"x"}`, `labels.jsonl:1: unknown field "verdit": want id, verdict, note, run_id or at`},
		{"note too long", `{"id":"a","verdict":"fail","note":"` + strings.Repeat("x", MaxNote+1) + `"}`, "labels.jsonl:1: note: 4097 bytes: at most 4096"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), FileName)
			require.NoError(t, os.WriteFile(path, []byte(tc.text), 0o644))
			_, err := Read(path)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	assert.ErrorContains(t, Append(filepath.Join(t.TempDir(), FileName), Label{ID: "a", Verdict: "maybe"}), "verdict")
}

func TestApplyGivesThePersonsVerdict(t *testing.T) {
	t.Parallel()
	failed := &results.Job{ID: "a", Completed: true, Reason: "1 of 2 evaluations failed", Cause: results.CauseChecks}
	Apply(failed, Label{ID: "a", Verdict: Pass, Note: "the judge was wrong"})
	assert.True(t, failed.Passed)
	assert.Empty(t, failed.Cause)
	assert.Equal(t, "reviewed: passed by a person: the judge was wrong (the run's verdict: failed: 1 of 2 evaluations failed)", failed.Reason)
	assert.True(t, Reviewed(failed.Reason))
	assert.Empty(t, failed.Why())

	incomplete := &results.Job{ID: "b", Reason: "not completed: timeout", Cause: results.CauseTimeout}
	Apply(incomplete, Label{ID: "b", Verdict: Fail})
	assert.True(t, incomplete.Completed)
	assert.False(t, incomplete.Passed)
	assert.Equal(t, "reviewed: failed by a person (the run's verdict: incomplete: not completed: timeout)", incomplete.Why())

	passed := &results.Job{ID: "c", Completed: true, Passed: true, Reason: "all passed"}
	Apply(passed, Label{ID: "c", Verdict: Clear})
	assert.True(t, passed.Passed)
	assert.Equal(t, "all passed", passed.Reason)
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"id":"a","verdict":"pass","note":"n","at":"2026-11-29T01:00:00Z"}` + "\n" + `{"id":"a","verdict":""}`))
	f.Add([]byte("{\"id\":1}\n\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		ls, err := parse("f", strings.NewReader(string(b)))
		if err != nil {
			return
		}
		for id, l := range ls {
			if l.ID != id || l.Check() != nil || l.Verdict == Clear {
				t.Fatalf("parse kept a bad label %+v", l)
			}
		}
	})
}
