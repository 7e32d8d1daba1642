package results

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/redact"
)

// maskJob is a record with a text from outside in every kind of place the
// encoder writes one: plain string fields, an evaluation's message and
// details, params, checkpoints (encoding/json), a transcript, tool
// categories, mock calls and notes; key is the key from outside in params,
// details and tool categories.
func maskJob(text, key string) *Job {
	return &Job{Record: RecordJob, ID: "s/-/run-1", Scenario: "s", ScenarioName: text, Params: map[string]any{key: text, "p": []any{text}},
		Reason: text, Strategy: "all_pass", Error: text, Agent: text, Model: text, Environment: "local", Notes: []string{text},
		TerminationReasons: []string{text},
		Evaluations: []Evaluation{{Type: "t", Scope: ScopeStep, Turn: -1, Message: text, Error: text, Description: text,
			Details: map[string]any{key: text, "authorization": text, "nested": map[string]any{"k": text}}}},
		Checkpoints: []Checkpoint{{ID: "c", Task: text, Expected: text, Actual: json.RawMessage(`{"authorization":"token x"}`)}},
		Transcript:  []Turn{{Role: "assistant", Text: text, Actions: []Action{{Name: text, Args: map[string]any{"authorization": text}}}}},
		MockCalls:   []MockCall{{Service: text, Method: "m", Args: []any{text}}},
		Efficiency:  Efficiency{Turns: 1, ToolCalls: ToolCalls{Total: 1, ByCategory: Counts{{Name: key, N: 1}}}}}
}

// maskKey is maskJob's key from outside where the fuzz targets compare
// with masking the whole line, which keeps every key.
const maskKey = "outside-key"

// FuzzWriteMasksAsTheWholeLine: the Writer masks only the values a
// record was given (spans), and that is exactly what masking the whole
// line gives, whatever the text and the secret. (Keys from outside, which
// the Writer masks too and the whole line's masking keeps, are
// FuzzWriteMasksKeysFromOutside's.)
func FuzzWriteMasksAsTheWholeLine(f *testing.F) {
	f.Add("hunter22", "the token is hunter22")
	f.Add("abcdefgh", `Authorization: Bearer abcdefgh`)
	f.Add("s3cr3t-value", "ghp_0123456789abcdefghijklmnopqrstuvwxyz sk-proj-0123456789abcdefghijk")
	f.Add("quote\"d-secret", `say "quote\"d-secret" \u0041`)
	f.Add("github_pat_x", "authorization")
	f.Fuzz(func(t *testing.T, secret, text string) {
		red := redact.New(secret)
		for _, k := range []string{maskKey, "p", "authorization", "nested", "k"} {
			if red.String(k) != k {
				return // the secret is in a key from outside: masked there, kept by the whole line's masking
			}
		}
		var sp spans
		line, err := sp.appendJob(nil, maskJob(text, maskKey))
		if err != nil {
			return // not a record encoding/json would write either
		}
		want := string(red.JSON(bytes.Clone(line)))
		got := string(red.JSONIn(line, sp))
		if got != want {
			t.Fatalf("secret %q, text %q:\nspans %v\ngot  %s\nwant %s", secret, text, sp, got, want)
		}
	})
}

// FuzzWriteMasksKeysFromOutside: a key from outside (params, details,
// tool categories) is masked exactly as the same text is as a value, and
// the line stays valid JSON.
func FuzzWriteMasksKeysFromOutside(f *testing.F) {
	f.Add("hunter22", "the token is hunter22")
	f.Add("abcdefgh", `Authorization: Bearer abcdefgh`)
	f.Add("s3cr3t-value", "ghp_0123456789abcdefghijklmnopqrstuvwxyz sk-proj-0123456789abcdefghijk")
	f.Add("quote\"d-secret", `say "quote\"d-secret" \u0041`)
	f.Add("nested", "authorization")
	f.Fuzz(func(t *testing.T, secret, text string) {
		red := redact.New(secret)
		var sp spans
		line, err := sp.appendJob(nil, maskJob(text, text))
		if err != nil {
			return
		}
		got := red.JSONIn(line, sp)
		var rec struct {
			Reason      string
			Params      map[string]any
			Evaluations []struct{ Details map[string]any }
			Efficiency  struct {
				ToolCalls struct {
					ByCategory map[string]int `json:"by_category"`
				} `json:"tool_calls"`
			}
		}
		if err := json.Unmarshal(got, &rec); err != nil {
			t.Fatalf("secret %q, text %q: not JSON: %v\n%s", secret, text, err, got)
		}
		masked := rec.Reason // the text as a value
		assert.Contains(t, rec.Params, masked, "params")
		assert.Contains(t, rec.Evaluations[0].Details, masked, "details")
		assert.Contains(t, rec.Efficiency.ToolCalls.ByCategory, masked, "tool categories")
	})
}

// TestWriterMasksEveryPlaceOfARecord: through the Writer, a secret in
// any value of a record, in details and encoding/json fields included, and
// in any key from outside (params, details, tool categories, a tool call's
// arguments), never reaches the file.
func TestWriterMasksEveryPlaceOfARecord(t *testing.T) {
	t.Parallel()
	const secret = "ghp_EveryPlaceToken0123456789abcdefghij"
	path := filepath.Join(t.TempDir(), "results.jsonl")
	w, err := Open(path, &Plan{RunID: "m"}, Options{Redactor: redact.New("plain-secret-value")})
	require.NoError(t, err)
	job := maskJob("x "+secret+" and plain-secret-value y", "key "+secret+" plain-secret-value")
	job.Transcript[0].Actions[0].Args[secret] = "an agent's tool call with the secret as a key"
	job.Evaluations[0].Details["nested"].(map[string]any)["plain-secret-value"] = 1
	require.NoError(t, w.Write(job))
	require.NoError(t, w.Close())
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.NotContains(t, string(b), secret)
	assert.NotContains(t, string(b), "plain-secret-value")
	assert.NotContains(t, string(b), "token x", "the Authorization value in a checkpoint's data")
	assert.Equal(t, 2, bytes.Count(b, []byte("\n")))
}
