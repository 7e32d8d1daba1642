package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/scenario"
)

// cli runs the CLI in-process and returns its exit code and output.
func cli(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	env := &cliEnv{stdout: &out, stderr: &errb, stdin: strings.NewReader(""), getenv: func(string) string { return "" }}
	code = mainWith(context.Background(), env, args)
	return code, out.String(), errb.String()
}

// lines splits output into lines, dropping the final newline.
func lines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

const td = "testdata/validate/"

func TestValidateText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		args       []string
		code       int
		stdout     []string
		stderrLine string
	}{
		{
			name:       "valid file",
			args:       []string{td + "good.scenario.yaml"},
			code:       exitOK,
			stderrLine: "1 file(s): 0 error(s), 0 warning(s)",
		},
		{
			name: "errors with positions, paths and suggestions",
			args: []string{td + "bad.scenario.yaml"},
			code: exitFail,
			stdout: []string{
				td + "bad.scenario.yaml:8:18: error: run[0].conversation.max_turns: 0 is below the minimum 1",
				td + `bad.scenario.yaml:13:15: error: run[0].evaluations[0].type: "string_contain" is not one of command_exit_code_is, context_retention, conversation_flow, conversation_length, execution_time, file_contains, file_exists, llm_judge, regex_match, string_contains, trajectory_contains_action, trajectory_match, user_satisfaction (did you mean "string_contains"?)`,
				td + `bad.scenario.yaml:16:13: error: judgment.strategy: "majorty_pass" is not one of all_pass, any_pass, majority_pass, weighted (did you mean "majority_pass"?)`,
				td + `bad.scenario.yaml:17:3: warning: judgment.treshold: unknown field "treshold"; this object takes strategy, threshold, weights (did you mean "threshold"?)`,
			},
			stderrLine: "1 file(s): 3 error(s), 1 warning(s)",
		},
		{
			name:       "warnings alone pass",
			args:       []string{td + "warn.scenario.yaml"},
			code:       exitOK,
			stdout:     []string{td + `warn.scenario.yaml:5:1: warning: owner: unknown field "owner"`},
			stderrLine: "1 file(s): 0 error(s), 1 warning(s)",
		},
		{
			name:       "strict turns unknown fields into errors",
			args:       []string{"--strict", td + "warn.scenario.yaml"},
			code:       exitFail,
			stdout:     []string{td + `warn.scenario.yaml:5:1: error: owner: unknown field "owner"`},
			stderrLine: "1 file(s): 1 error(s), 0 warning(s)",
		},
		{
			name:       "JSON syntax error at its exact line and column",
			args:       []string{td + "syntax.json"},
			code:       exitFail,
			stdout:     []string{td + `syntax.json:5:3: error: syntax error: invalid character '"' after object key:value pair; is a comma missing before it?`},
			stderrLine: "1 file(s): 1 error(s), 0 warning(s)",
		},
		{
			name: "a directory: duplicate ids and unknown set members",
			args: []string{td + "dir"},
			code: exitFail,
			stdout: []string{
				td + `dir/pr-fix-again.json:2:9: error: id: scenario id "pr-fix-001" is already used by ` + td + "dir/pr-fix-001.json",
				td + `dir/scenario-sets.json:3:29: error: nightly[1]: set "nightly" names scenario "pr-fx-001", but none of the *.json scenarios in testdata/validate/dir/ has that id (did you mean "pr-fix-001"?)`,
			},
			stderrLine: "3 file(s): 2 error(s), 0 warning(s)",
		},
		{
			name:       "a matrix and its base scenario",
			args:       []string{td + "sweep.matrix.yaml"},
			code:       exitOK,
			stderrLine: "1 file(s): 0 error(s), 0 warning(s)",
		},
		{
			name: "a matrix whose base scenario is missing",
			args: []string{td + "broken.matrix.yaml"},
			code: exitFail,
			stdout: []string{
				td + `broken.matrix.yaml:2:16: error: base_scenario: base scenario "missing.scenario.yaml" not found (looked for ` + td + `missing.scenario.yaml, relative to the matrix file, and, as ElizaOS once resolved it, relative to the current directory and to each directory above the matrix file)`,
				td + "broken.matrix.yaml:5:13: error: matrix[0].values: needs at least 1 item(s), has 0",
			},
			stderrLine: "1 file(s): 2 error(s), 0 warning(s)",
		},
		{
			name:       "the same id in two files named on the command line",
			args:       []string{td + "good.scenario.yaml", td + "good.scenario.yaml"},
			code:       exitFail,
			stdout:     []string{td + `good.scenario.yaml:2:1: error: id: scenario id "good" (from the file name) is already used by ` + td + "good.scenario.yaml; give one of them an id"},
			stderrLine: "2 file(s): 1 error(s), 0 warning(s)",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			code, stdout, stderr := cli(t, append([]string{"validate"}, tt.args...)...)
			assert.Equal(t, tt.stdout, lines(stdout))
			assert.Equal(t, []string{tt.stderrLine}, lines(stderr))
			assert.Equal(t, tt.code, code)
		})
	}
}

func TestValidateJSON(t *testing.T) {
	t.Parallel()
	code, stdout, stderr := cli(t, "validate", "--format", "json", td+"bad.scenario.yaml", td+"good.scenario.yaml")
	assert.Equal(t, exitFail, code)
	assert.Empty(t, stderr)
	var got struct {
		Files       int                   `json:"files"`
		Errors      int                   `json:"errors"`
		Warnings    int                   `json:"warnings"`
		Diagnostics []scenario.Diagnostic `json:"diagnostics"`
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &got))
	assert.Equal(t, 2, got.Files)
	assert.Equal(t, 3, got.Errors)
	assert.Equal(t, 1, got.Warnings)
	require.Len(t, got.Diagnostics, 4)
	d := got.Diagnostics[1]
	assert.Equal(t, td+"bad.scenario.yaml", d.File)
	assert.Equal(t, 13, d.Line)
	assert.Equal(t, 15, d.Column)
	assert.Equal(t, "run[0].evaluations[0].type", d.Path.String())
	assert.Equal(t, "enum", d.Code)
	assert.Equal(t, "string_contains", d.Suggestion)

	// Field names and severities as a program reads them.
	var raw struct {
		Diagnostics []map[string]any `json:"diagnostics"`
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &raw))
	assert.Equal(t, map[string]any{
		"file": td + "bad.scenario.yaml", "line": 17.0, "column": 3.0, "path": "judgment.treshold", "severity": "warning",
		"code": "unknown-field", "message": `unknown field "treshold"; this object takes strategy, threshold, weights`, "suggestion": "threshold",
	}, raw.Diagnostics[3])

	code, stdout, _ = cli(t, "validate", "--format", "json", td+"good.scenario.yaml")
	assert.Equal(t, exitOK, code)
	assert.JSONEq(t, `{"files": 1, "errors": 0, "warnings": 0, "diagnostics": []}`, stdout)

	code, stdout, _ = cli(t, "validate", "--format", "json", "--strict", td+"warn.scenario.yaml")
	assert.Equal(t, exitFail, code)
	assert.Contains(t, stdout, `"severity": "error"`)
}

func TestValidateUsage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		args   []string
		stderr string
	}{
		{"no paths", []string{"validate"}, "usage: agenteval validate"},
		{"unknown format", []string{"validate", "--format", "xml", td + "good.scenario.yaml"}, `agenteval validate: --format "xml": want text, json`},
		{"unknown flag", []string{"validate", "--stricter", td + "good.scenario.yaml"}, "flag provided but not defined: -stricter"},
		{"missing file", []string{"validate", td + "nope.scenario.yaml"}, "agenteval validate: " + td + "nope.scenario.yaml: stat"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			code, stdout, stderr := cli(t, tt.args...)
			assert.Equal(t, exitUsage, code)
			assert.Empty(t, stdout)
			assert.Contains(t, stderr, tt.stderr)
		})
	}
}

// TestValidatePeerFiles validates real files of both formats
// (testdata/shared/peer).
func TestValidatePeerFiles(t *testing.T) {
	t.Parallel()
	peer := "../testdata/shared/peer"
	code, stdout, _ := cli(t, "validate", peer+"/ghx-scenarios", peer+"/eliza/test-basic.scenario.yaml", peer+"/eliza/github-issue-analysis.matrix.yaml")
	assert.Equal(t, exitOK, code, stdout)
	assert.Empty(t, stdout)

	code, stdout, _ = cli(t, "validate", peer+"/eliza/invalid")
	assert.Equal(t, exitFail, code)
	assert.Contains(t, lines(stdout), peer+`/eliza/invalid/simple-test.scenario.yaml:39:15: error: run[0].evaluations[1].type: "response_time" is not one of command_exit_code_is, context_retention, conversation_flow, conversation_length, execution_time, file_contains, file_exists, llm_judge, regex_match, string_contains, trajectory_contains_action, trajectory_match, user_satisfaction (did you mean "execution_time"?)`)
}

func TestSchemaCommand(t *testing.T) {
	t.Parallel()
	for _, k := range scenario.SchemaKinds() {
		code, stdout, stderr := cli(t, "schema", k.String())
		require.Equal(t, exitOK, code, stderr)
		committed, err := os.ReadFile(filepath.Join("..", "scenario", "schemas", k.String()+".schema.json"))
		require.NoError(t, err)
		assert.Equal(t, string(committed), stdout, "agenteval schema %s prints the committed file", k)
	}
}

// TestSchemaCommandValidates uses the printed schema as an editor or a CI
// job would: it accepts the example files and rejects a misspelt
// evaluation type.
func TestSchemaCommandValidates(t *testing.T) {
	t.Parallel()
	code, out, _ := cli(t, "schema", "scenario")
	require.Equal(t, exitOK, code)
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(out))
	require.NoError(t, err)
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	require.NoError(t, c.AddResource("file:///scenario.schema.json", doc))
	sch, err := c.Compile("file:///scenario.schema.json")
	require.NoError(t, err)

	inst := func(name string) any {
		data, err := os.ReadFile(name)
		require.NoError(t, err)
		d, ds := scenario.ParseDocument(name, data, scenario.Limits{})
		require.False(t, ds.HasErrors(), "%v", ds)
		js, err := json.Marshal(d.Value)
		require.NoError(t, err)
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
		require.NoError(t, err)
		return v
	}
	files := []string{td + "good.scenario.yaml"}
	peer, _ := filepath.Glob("../testdata/shared/peer/eliza/*.scenario.yaml")
	require.NotEmpty(t, peer)
	files = append(files, peer...)
	for _, f := range files {
		assert.NoError(t, sch.Validate(inst(f)), f)
	}
	err = sch.Validate(inst(td + "bad.scenario.yaml"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "at '/run/0/evaluations/0/type'")
}

func TestSchemaUsage(t *testing.T) {
	t.Parallel()
	code, stdout, stderr := cli(t, "schema")
	assert.Equal(t, exitUsage, code)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, "usage: agenteval schema scenario|eval|matrix|manifest|sets|suite|eval-config|seed")

	code, stdout, stderr = cli(t, "schema", "scenaro")
	assert.Equal(t, exitUsage, code)
	assert.Empty(t, stdout)
	assert.Equal(t, `agenteval schema: unknown document kind "scenaro"; want one of scenario, eval, matrix, manifest, sets, suite, eval-config, seed, plan (did you mean "scenario"?)`+"\n", stderr)

	code, _, _ = cli(t, "schema", "scenario", "eval")
	assert.Equal(t, exitUsage, code)
}
