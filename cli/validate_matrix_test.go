package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// validateBase is a one-step base scenario with a conversation.
const validateBase = `name: base
description: one step
environment: {type: local}
run:
  - input: hello
    evaluations:
      - {type: string_contains, value: hello}
    conversation:
      max_turns: 3
      user_simulator: {persona: p, objective: o}
judgment: {strategy: all_pass}
`

// TestValidateChecksMatricesLikeRun holds validate to what run and matrix
// say of a matrix: every matrix run rejects, validate rejects (exit 1) with
// the same diagnostics at the same positions; what run accepts, validate
// accepts.
func TestValidateChecksMatricesLikeRun(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, axes string
		want       []string // diagnostics; none for a valid matrix
	}{
		{"a step the base lacks", "  - parameter: run[3].input\n    values: [a, b]\n",
			[]string{"m.matrix.yaml:4:16: error: matrix[0].parameter: run[3].input: index 3 is out of range: run has 1 element(s) in the base scenario (indexes 0 to 0)"}},
		{"a misspelt field", "  - parameter: run[0].conversaton.max_turns\n    values: [2, 4]\n",
			[]string{`m.matrix.yaml:4:16: error: matrix[0].parameter: run[0].conversaton.max_turns: run[0] has no field "conversaton" (did you mean "conversation"?)`}},
		{"a value outside the enum", "  - parameter: judgment.strategy\n    values: [all_pass, best_of]\n",
			[]string{`m.matrix.yaml:5:24: error: matrix[0].values[1]: judgment.strategy: "best_of" is not one of all_pass, any_pass, majority_pass, weighted`}},
		{"a value of the wrong type", "  - parameter: run[0].conversation.max_turns\n    values: [2, many]\n",
			[]string{"m.matrix.yaml:5:17: error: matrix[0].values[1]: run[0].conversation.max_turns: got string, want integer"}},
		{"a path syntax error", "  - parameter: run[0.input\n    values: [a]\n", nil},
		{"an evaluation type varied alone", "  - parameter: run[0].evaluations[0].type\n    values: [regex_match]\n", nil},
		{"valid", "  - parameter: run[0].conversation.max_turns\n    values: [2, 4]\n  - parameter: run[0].input\n    values: [a, b]\n", []string{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			require.NoError(t, os.WriteFile(filepath.Join(dir, "base.scenario.yaml"), []byte(validateBase), 0o644))
			m := filepath.Join(dir, "m.matrix.yaml")
			require.NoError(t, os.WriteFile(m, []byte("name: m\nbase_scenario: base.scenario.yaml\nmatrix:\n"+tc.axes), 0o644))

			mcode, _, mout := runCLI(t, "matrix", "--count", m)
			vcode, vout, _ := runCLI(t, "validate", m)
			rcode, _, rout := runCLI(t, "run", "--out", filepath.Join(dir, "out"), m)
			if tc.want != nil && len(tc.want) == 0 {
				assert.Equal(t, exitOK, mcode, mout)
				assert.Equal(t, exitOK, vcode, vout)
				assert.NotEqual(t, exitUsage, rcode, "run accepts it (its jobs may fail): %s", rout)
				return
			}
			require.Equal(t, exitFail, mcode, "matrix rejects it: %s", mout)
			require.Equal(t, exitUsage, rcode, "run rejects it: %s", rout)
			assert.Equal(t, exitFail, vcode, "validate rejects it too: %s", vout)
			// validate prints what matrix prints, position for position.
			var fromMatrix []string
			for _, l := range strings.Split(strings.TrimSpace(mout), "\n") {
				if strings.Contains(l, ": error: ") {
					fromMatrix = append(fromMatrix, strings.ReplaceAll(l, dir+string(filepath.Separator), ""))
				}
			}
			got := strings.Split(strings.TrimSpace(strings.ReplaceAll(vout, dir+string(filepath.Separator), "")), "\n")
			assert.Equal(t, fromMatrix, got)
			if tc.want != nil {
				assert.Equal(t, tc.want, got)
			}
		})
	}
}
