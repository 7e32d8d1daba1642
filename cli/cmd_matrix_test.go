package cli

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const matrixTD = "../matrix/testdata/"

func TestMatrixCommand(t *testing.T) {
	t.Parallel()
	code, out, errOut := cli(t, "matrix", matrixTD+"small.matrix.yaml")
	require.Equal(t, exitOK, code, errOut)
	ls := lines(out)
	require.Len(t, ls, 4)
	var first struct {
		ID          string         `json:"id"`
		Index       int64          `json:"index"`
		Combination string         `json:"combination"`
		Run         int            `json:"run"`
		Params      map[string]any `json:"params"`
	}
	require.NoError(t, json.Unmarshal([]byte(ls[0]), &first))
	assert.Equal(t, "small/"+first.Combination+"/run-1", first.ID, "a matrix names its jobs")
	assert.Equal(t, 1, first.Run)
	assert.Equal(t, map[string]any{"run[1].conversation.max_turns": 2.0, "judgment.strategy": "all_pass"}, first.Params)
	assert.JSONEq(t, `{"id":"small/c-c817f01b74ae4950/run-1","index":0,"combination":"c-c817f01b74ae4950","run":1,"params":{"run[1].conversation.max_turns":2,"judgment.strategy":"all_pass"}}`, ls[0])
	assert.Contains(t, ls[0], `"params":{"run[1].conversation.max_turns":2,"judgment.strategy":"all_pass"}`, "params keep axis order")
}

func TestMatrixCommandSelect(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout []string
		stderr string
	}{
		{"count", []string{"--count", matrixTD + "small.matrix.yaml"}, exitOK, []string{"4"}, ""},
		{"filtered count", []string{"--count", "--filter", "judgment.strategy=any_pass", matrixTD + "small.matrix.yaml"}, exitOK, []string{"2"}, ""},
		{"filters and", []string{"--count", "--filter", "judgment.strategy=any_pass", "--filter", "run[1].conversation.max_turns=5", matrixTD + "small.matrix.yaml"}, exitOK, []string{"1"}, ""},
		{"shard", []string{"--shard", "2/3", matrixTD + "small.matrix.yaml"}, exitOK, []string{
			`{"id":"small/c-ce53dd397db3dc93/run-1","index":1,"combination":"c-ce53dd397db3dc93","run":1,"params":{"run[1].conversation.max_turns":2,"judgment.strategy":"any_pass"}}`,
		}, ""},
		{"plain scenario", []string{"--runs", "2", matrixTD + "base.scenario.yaml"}, exitOK, []string{
			`{"id":"base/-/run-1","index":0,"combination":"-","run":1,"params":{}}`,
			`{"id":"base/-/run-2","index":1,"combination":"-","run":2,"params":{}}`,
		}, ""},
		{"cap", []string{"--max-jobs", "3", matrixTD + "small.matrix.yaml"}, exitFail, nil,
			"agenteval matrix: " + matrixTD + "small.matrix.yaml: matrix: too many jobs: the selection holds 4 jobs (2 × 2 × 1 run(s)), more than the cap of 3; narrow it with filters or raise the cap (--max-jobs)\n"},
		{"cap lifted", []string{"--count", "--max-jobs", "0", matrixTD + "small.matrix.yaml"}, exitOK, []string{"4"}, ""},
		{"invalid matrix", []string{matrixTD + "bad.matrix.yaml"}, exitFail, nil,
			matrixTD + "bad.matrix.yaml:4:16: error: matrix[0].parameter: run[1].conversation.max_turn: run[1].conversation has no field \"max_turn\" (did you mean \"max_turns\"?)\n" +
				matrixTD + "bad.matrix.yaml:9:9: error: matrix[1].values[1]: judgment.strategy: \"best_of_three\" is not one of all_pass, any_pass, majority_pass, weighted\n"},
		{"unknown filter parameter", []string{"--filter", "judgment.strategi=any_pass", matrixTD + "small.matrix.yaml"}, exitUsage, nil,
			"agenteval matrix: filter \"judgment.strategi=any_pass\": judgment.strategi is not a parameter of this matrix; its parameters are run[1].conversation.max_turns, judgment.strategy (did you mean \"judgment.strategy\"?)\n"},
		{"bad filter", []string{"--filter", "judgment.strategy", matrixTD + "small.matrix.yaml"}, exitUsage, nil,
			"agenteval matrix: filter \"judgment.strategy\": want path=value, such as run[0].conversation.max_turns=3\n"},
		{"bad shard", []string{"--shard", "0/2", matrixTD + "small.matrix.yaml"}, exitUsage, nil,
			"agenteval matrix: shard \"0/2\": the shard number must be between 1 and 2 (shards count from 1)\n"},
		{"missing file", []string{matrixTD + "nope.matrix.yaml"}, exitUsage, nil,
			"agenteval matrix: stat " + matrixTD + "nope.matrix.yaml: no such file or directory\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			code, out, errOut := cli(t, append([]string{"matrix"}, tt.args...)...)
			assert.Equal(t, tt.code, code, errOut)
			assert.Equal(t, tt.stdout, lines(out))
			if tt.stderr != "" || tt.code == exitOK {
				assert.Equal(t, tt.stderr, errOut)
			}
		})
	}
}

func TestMatrixCommandUsage(t *testing.T) {
	t.Parallel()
	code, _, errOut := cli(t, "matrix")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, "usage: agenteval matrix [--count | --show INDEX] [--filter PATH=VALUE]... [--shard i/n] [--max-jobs N] FILE")
	code, _, _ = cli(t, "matrix", "--nope", matrixTD+"small.matrix.yaml")
	assert.Equal(t, exitUsage, code)
}
