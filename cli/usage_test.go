package cli

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// Every verb prints its usage on stdout and exits 0 when asked for help;
// `help VERB` is the same.
func TestEveryVerbHasHelp(t *testing.T) {
	t.Parallel()
	verbs := [][]string{{"report", "compare"}, {"fixture"}}
	for _, c := range commands() {
		verbs = append(verbs, []string{c.name})
	}
	for _, op := range fixtureOps {
		verbs = append(verbs, []string{"fixture", op})
	}
	for _, verb := range verbs {
		for _, asks := range [][]string{append(append([]string{}, verb...), "-h"), append(append([]string{}, verb...), "--help"), append([]string{"help"}, verb...)} {
			t.Run(join(asks), func(t *testing.T) {
				t.Parallel()
				code, stdout, stderr := runCLI(t, asks...)
				assert.Equal(t, exitOK, code, stderr)
				assert.Contains(t, stdout, "usage: agenteval "+verb[0])
				assert.Empty(t, stderr)
			})
		}
	}
}

func join(args []string) string {
	s := ""
	for i, a := range args {
		if i > 0 {
			s += " "
		}
		s += a
	}
	return s
}

// A usage mistake names what is wrong and still exits 2.
func TestBadFlagValuesAreNamed(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"checkpoint", "--format", "yaml", "x.json"}, `agenteval checkpoint: --format "yaml": want text, json`},
		{[]string{"checkpoint", "--concurrency", "0", "x.json"}, "agenteval checkpoint: --concurrency 0: want at least 1"},
		{[]string{"fixture", "status", "--format", "Text"}, `agenteval fixture status: --format "Text": want text, json (did you mean "text"?)`},
		{[]string{"matrix", "--runs", "0", "x.yaml"}, "agenteval matrix: --runs 0: want at least 1"},
		{[]string{"matrix", "--max-jobs", "-1", "x.yaml"}, "agenteval matrix: --max-jobs -1: want a number of jobs"},
		{[]string{"report", "compare", "--min-pass-rate", "1.5", "a", "b"}, "--min-pass-rate 1.5: want a rate between 0 and 1"},
		{[]string{"run", "--concurrency", "many", "x"}, `invalid value "many" for flag -concurrency`},
		{[]string{"run", "--filter", "a=1", "testdata/run/echo.scenario.yaml"}, "the filter a=1 matched nothing: filters select the combinations of a matrix, and no matrix is given (1 scenario file(s) left out)"},
		{[]string{"fixture", "sed"}, `unknown operation "sed" (did you mean "seed"?)`},
		{nil, "usage: agenteval <command>"},
	}
	for _, tc := range tests {
		t.Run(join(tc.args), func(t *testing.T) {
			t.Parallel()
			code, stdout, stderr := runCLI(t, tc.args...)
			assert.Equal(t, exitUsage, code)
			assert.Empty(t, stdout)
			assert.Contains(t, stderr, tc.want)
		})
	}
}
