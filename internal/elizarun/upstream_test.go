package elizarun

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/agenteval/agenteval/internal/testtool"
	"github.com/agenteval/agenteval/results"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestUpstreamReportGenerateReadsExport runs the ElizaOS CLI's own
// `elizaos report generate` (npm @elizaos/cli 1.7.2, under the bun it
// ships with) on a folder Export wrote: every run file must validate as a
// ScenarioRunResult (none skipped) and its figures must be ours.
func TestUpstreamReportGenerateReadsExport(t *testing.T) {
	t.Parallel()
	elizaos := testtool.NeedElizaOS(t)

	jobs := []*results.Job{job("a", 1, "pass"), job("a", 2, "fail"), job("b", 1, "pass"), job("b", 2, "incomplete")}
	dir := filepath.Join(t.TempDir(), "eliza")
	_, err := Export(dir, seq(jobs...))
	require.NoError(t, err)

	home := t.TempDir()
	out := filepath.Join(home, "report.json")
	cmd := exec.CommandContext(t.Context(), elizaos[0], append(elizaos[1:], "report", "generate", dir, "--format", "json", "--output-path", out)...)
	cmd.Dir = home
	cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "ELIZA_NO_AUTO_INSTALL=true", "NO_COLOR=1"}
	log, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", log)

	var rep struct {
		Metadata struct {
			ProcessedFiles int `json:"processed_files"`
			SkippedFiles   int `json:"skipped_files"`
		} `json:"metadata"`
		SummaryStats struct {
			TotalRuns              int                `json:"total_runs"`
			TotalFailedRuns        int                `json:"total_failed_runs"`
			AverageTotalTokens     float64            `json:"average_total_tokens"`
			CapabilitySuccessRates map[string]float64 `json:"capability_success_rates"`
		} `json:"summary_stats"`
		ResultsByParameter map[string]map[string]struct {
			TotalRuns int `json:"total_runs"`
		} `json:"results_by_parameter"`
		RawResults []struct {
			RunID string `json:"run_id"`
		} `json:"raw_results"`
	}
	data, err := os.ReadFile(out)
	require.NoError(t, err, "%s", log)
	require.NoError(t, json.Unmarshal(data, &rep))
	assert.Equal(t, 4, rep.Metadata.ProcessedFiles, "%s", log)
	assert.Equal(t, 0, rep.Metadata.SkippedFiles, "every file validates as a ScenarioRunResult: %s", log)
	assert.Equal(t, 4, rep.SummaryStats.TotalRuns)
	assert.Equal(t, 1, rep.SummaryStats.TotalFailedRuns, "upstream counts runs with an error: the incomplete one")
	assert.Equal(t, 42.0, rep.SummaryStats.AverageTotalTokens)
	assert.Equal(t, map[string]float64{"string_contains": 1, "trajectory_contains_action": 2.0 / 3}, rep.SummaryStats.CapabilitySuccessRates)
	require.Contains(t, rep.ResultsByParameter, "character.llm.model")
	assert.Equal(t, 2, rep.ResultsByParameter["character.llm.model"]["gpt-a"].TotalRuns)
	var ids []string
	for _, r := range rep.RawResults {
		ids = append(ids, r.RunID)
	}
	assert.ElementsMatch(t, []string{jobs[0].ID, jobs[1].ID, jobs[2].ID, jobs[3].ID}, ids)
}
