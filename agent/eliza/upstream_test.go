package eliza_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/internal/testtool"
	"github.com/agenteval/agenteval/llm/llmtest"
	"github.com/agenteval/agenteval/redact"
	"github.com/agenteval/agenteval/report"
	"github.com/agenteval/agenteval/results"
)

// sameModel answers both systems the same way: ElizaOS's should-respond
// prompt (which upstream's scenario run meets first, its channel being a
// group) with RESPOND, every other prompt with a greeting the REPLY
// action sends.
func sameModel(r llmtest.Request) llmtest.Reply {
	for _, m := range r.Chat.Messages {
		if strings.Contains(m.Content, "should respond to or interact with the conversation") {
			return llmtest.Text("<response><name>agent</name><reasoning>spoken to</reasoning><action>RESPOND</action></response>")
		}
	}
	return elizaReply("The user wants a greeting.", "REPLY", "Hello! Nice to meet you. I can help with questions.")
}

var (
	statusLine = regexp.MustCompile(`SCENARIO STATUS: (✅ PASS|❌ FAIL)`)
	logsLine   = regexp.MustCompile(`Using logs directory: (\S+)`)
	// writtenLine is each file upstream says it wrote.
	writtenLine = regexp.MustCompile(`(?:written to|saved to): (\S+\.json)`)
	ansi        = regexp.MustCompile("\x1b\\[[0-9;]*m")
)

// upstreamRun is what `elizaos scenario run FILE` printed and wrote.
type upstreamRun struct {
	passed bool
	exit   int
	// runFile is its ScenarioRunResult, copied out of upstream's logs
	// folder (the files it wrote there are removed).
	runFile string
}

// runUpstream runs ElizaOS's own `elizaos scenario run` on file in a
// folder of its own, its model the llmtest server. ElizaOS 1.7.2 writes
// its run files to the logs folder baked into its bundle (the build
// machine's /home/runner/work/eliza/...), whatever the working folder:
// the files this run added there are moved into keep.
func runUpstream(t *testing.T, elizaos []string, srv *llmtest.Server, file, keep string) upstreamRun {
	t.Helper()
	home := t.TempDir()
	cmd := exec.CommandContext(t.Context(), elizaos[0], append(elizaos[1:], "scenario", "run", file)...)
	cmd.Dir = home
	cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "OPENAI_BASE_URL=" + srv.URL,
		"OPENAI_API_KEY=" + srv.Config().APIKey, "NO_COLOR=1", "FORCE_COLOR=0", "LOG_LEVEL=info"}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	text := ansi.ReplaceAllString(out.String(), "")
	run := upstreamRun{exit: cmd.ProcessState.ExitCode()}
	m := statusLine.FindStringSubmatch(text)
	require.NotNil(t, m, "no SCENARIO STATUS from elizaos scenario run %s (%v):\n%s", file, err, text)
	run.passed = m[1] == "✅ PASS"
	if logs := logsLine.FindStringSubmatch(text); logs != nil {
		// Its centralised result names itself run-….json; the step files
		// beside it are per step.
		for _, written := range writtenLine.FindAllStringSubmatch(text, -1) {
			path := written[1]
			if filepath.Dir(path) != logs[1] {
				continue
			}
			if !strings.HasSuffix(path, "-execution.json") && !strings.HasSuffix(path, "-evaluation.json") {
				data, err := os.ReadFile(path)
				require.NoError(t, err)
				run.runFile = filepath.Join(keep, filepath.Base(path))
				require.NoError(t, os.WriteFile(run.runFile, data, 0o644))
			}
			_ = os.Remove(path)
		}
	}
	return run
}

// TestVerdictsMatchUpstreamScenarioRun runs ElizaOS's own runnable example
// scenarios (those that need no external service: two of its agent
// scenarios and one of its local code scenarios) through ElizaOS's own
// `elizaos scenario run` (npm @elizaos/cli 1.7.2) and through agenteval's
// eliza agent, both on the same scripted model, and asks for the same
// verdicts. Then agenteval's report reads the run files upstream wrote and
// finds the verdicts upstream printed.
//
// Deliberate differences, not run here: upstream passes a scenario with
// no evaluations (all_pass over nothing; multi-step, mixed-results), where
// agenteval records the job incomplete, "nothing was checked"; upstream
// ignores the scenario's character (a fixed scenario-agent), agenteval
// uses it.
func TestVerdictsMatchUpstreamScenarioRun(t *testing.T) {
	elizaos := testtool.NeedElizaOS(t)
	testtool.NeedNPM(t, elizaPackages...)
	srv := llmtest.NewServer(t)
	srv.Handle(sameModel)
	const examples = "../../testdata/corpus/eliza-7a128d1/packages/cli/src/commands/scenario/examples/"
	cases := map[string]bool{ // scenario: the verdict its author meant
		"nl-smoke":                true,
		"simple-natural-language": true,  // any_pass: "help" is in the reply
		"failing-test":            false, // a bash code step
	}
	dir, keep := t.TempDir(), t.TempDir()
	var paths []string
	for name := range cases {
		data, err := os.ReadFile(examples + name + ".scenario.yaml")
		require.NoError(t, err)
		p := filepath.Join(dir, name+".scenario.yaml")
		require.NoError(t, os.WriteFile(p, data, 0o644))
		paths = append(paths, p)
	}
	slices.Sort(paths)

	// One upstream run at a time: ElizaOS 1.7.2 names its run files by
	// the second (run-DATE-001-HH-MM-SS), so runs ending together would
	// write over each other's files.
	upstream := map[string]upstreamRun{}
	for _, p := range paths {
		upstream[strings.TrimSuffix(filepath.Base(p), ".scenario.yaml")] = runUpstream(t, elizaos, srv, p, keep)
	}
	if t.Failed() {
		return
	}

	ours := map[string]bool{}
	for _, j := range elizaRun(t, srv, "eliza", 2, nil, paths...) {
		ours[j.Scenario] = j.Passed
	}
	for name, want := range cases {
		up := upstream[name]
		assert.Equal(t, want, up.passed, "%s: upstream's verdict", name)
		assert.Equal(t, map[bool]int{true: 0, false: 1}[up.passed], up.exit, "%s: upstream's exit code", name)
		assert.Equal(t, up.passed, ours[name], "%s: agenteval's verdict differs from elizaos scenario run's", name)
	}

	// Upstream's own run files, read by agenteval's report.
	var files []string
	for _, run := range upstream {
		if run.runFile != "" {
			files = append(files, run.runFile)
		}
	}
	require.Len(t, files, len(cases), "upstream wrote one ScenarioRunResult a run")
	res, err := report.ReadFiles(files, report.Options{Redactor: redact.New()})
	require.NoError(t, err)
	defer res.Close()
	read := map[string]*results.Job{}
	for j, err := range res.Jobs() {
		require.NoError(t, err)
		read[strings.TrimSuffix(filepath.Base(j.Scenario), ".scenario.yaml")] = j
	}
	for name := range cases {
		j := read[name]
		require.NotNil(t, j, "%s: no job read from upstream's run file", name)
		assert.True(t, j.Completed, name)
		if name == "simple-natural-language" {
			// A ScenarioRunResult holds no verdict (upstream prints it) nor
			// the judgment: read back, every evaluation must pass, and
			// under this scenario's any_pass one of its two did not.
			assert.False(t, j.Passed, name)
			assert.Equal(t, 0.5, j.Score, name)
			continue
		}
		assert.Equal(t, upstream[name].passed, j.Passed, "%s: the verdict read from upstream's run file", name)
	}
}
