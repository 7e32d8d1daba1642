package matrix

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/scenario"
)

// checkAgainstLoader builds the job's scenario the slow way (every override
// applied to the base's plain data, then loaded) and compares it with the
// copy-on-write result.
func checkAgainstLoader(t *testing.T, l *scenario.Loader, f *scenario.File, p *Plan, j Job) {
	t.Helper()
	doc, err := toPlain(f.Base.Scenario)
	require.NoError(t, err)
	for i, prm := range j.Params {
		doc, err = setPlain(doc, p.axes[i].path, prm.Value)
		require.NoError(t, err)
	}
	g, err := l.LoadValue(scenario.KindScenario, f.Base.Name, doc)
	require.NoError(t, err)
	want, err := json.Marshal(g.Scenario)
	require.NoError(t, err)
	got, err := json.Marshal(j.Scenario)
	require.NoError(t, err)
	require.JSONEq(t, string(want), string(got), "job %s", j.ID)
}

func readFixture(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	require.NoError(t, err)
	return string(b)
}
