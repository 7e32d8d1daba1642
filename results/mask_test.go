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
// details (keys too), params, checkpoints (encoding/json), a transcript,
// tool categories, mock calls and notes.
func maskJob(text string) *Job {
	return &Job{Record: RecordJob, ID: "s/-/run-1", Scenario: "s", ScenarioName: text, Params: map[string]any{text: text, "p": []any{text}},
		Reason: text, Strategy: "all_pass", Error: text, Agent: text, Model: text, Environment: "local", Notes: []string{text},
		TerminationReasons: []string{text},
		Evaluations: []Evaluation{{Type: "t", Scope: ScopeStep, Turn: -1, Message: text, Error: text, Description: text,
			Details: map[string]any{text: text, "authorization": text, "nested": map[string]any{"k": text}}}},
		Checkpoints: []Checkpoint{{ID: "c", Task: text, Expected: text, Actual: json.RawMessage(`{"authorization":"token x"}`)}},
		Transcript:  []Turn{{Role: "assistant", Text: text, Actions: []Action{{Name: text, Args: map[string]any{"authorization": text}}}}},
		MockCalls:   []MockCall{{Service: text, Method: "m", Args: []any{text}}},
		Efficiency:  Efficiency{Turns: 1, ToolCalls: ToolCalls{Total: 1, ByCategory: Counts{{Name: text, N: 1}}}}}
}

// FuzzWriteMasksAsTheWholeLine: the Writer masks only the values a
// record was given (spans), and that is exactly what masking the whole
// line gives, whatever the text and the secret.
func FuzzWriteMasksAsTheWholeLine(f *testing.F) {
	f.Add("hunter22", "the token is hunter22")
	f.Add("abcdefgh", `Authorization: Bearer abcdefgh`)
	f.Add("s3cr3t-value", "ghp_0123456789abcdefghijklmnopqrstuvwxyz sk-proj-0123456789abcdefghijk")
	f.Add("quote\"d-secret", `say "quote\"d-secret" \u0041`)
	f.Add("github_pat_x", "authorization")
	f.Fuzz(func(t *testing.T, secret, text string) {
		red := redact.New(secret)
		var sp spans
		line, err := sp.appendJob(nil, maskJob(text))
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

// TestWriterMasksEveryPlaceOfARecord: through the Writer, a secret in
// any value of a record, in details and encoding/json fields included,
// never reaches the file.
func TestWriterMasksEveryPlaceOfARecord(t *testing.T) {
	t.Parallel()
	const secret = "ghp_EveryPlaceToken0123456789abcdefghij"
	path := filepath.Join(t.TempDir(), "results.jsonl")
	w, err := Open(path, &Plan{RunID: "m"}, Options{Redactor: redact.New("plain-secret-value")})
	require.NoError(t, err)
	job := maskJob("x " + secret + " and plain-secret-value y")
	// Keys stay as they are (redact.Redactor.JSON keeps a text's keys): the
	// keys from outside here are plain.
	job.Params = map[string]any{"p": job.Reason}
	job.Evaluations[0].Details = map[string]any{"authorization": job.Reason, "nested": map[string]any{"k": job.Reason}}
	job.Efficiency.ToolCalls.ByCategory = Counts{{Name: "bash", N: 1}}
	require.NoError(t, w.Write(job))
	require.NoError(t, w.Close())
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.NotContains(t, string(b), secret)
	assert.NotContains(t, string(b), "plain-secret-value")
	assert.NotContains(t, string(b), "token x", "the Authorization value in a checkpoint's data")
	assert.Equal(t, 2, bytes.Count(b, []byte("\n")))
}
