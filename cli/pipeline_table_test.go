package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval"
	"github.com/agenteval/agenteval/agentevaltest"
	"github.com/agenteval/agenteval/github"
	"github.com/agenteval/agenteval/internal/githubfake"
	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/llm/llmtest"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/runner"
	"github.com/agenteval/agenteval/scenario"
)

// pipelineCase is one row of TestOnePipeline: a run given as a suite file
// (or a plain run of the scenario), a budget, and what every way of
// running it must do alike.
type pipelineCase struct {
	name string
	// suite is the suite file's text ("" for a plain run of the scenario
	// with the openai:m1 agent, runs times).
	suite string
	runs  int
	// budget is run's --budget; tokens the same as the library's Budget.
	budget string
	tokens int64
	// jobs are how many jobs run (the warm-up's are not counted).
	jobs int
	// log counts lines the run says (library and command alike).
	log map[string]int
}

const pipelineScenario = `name: Hello
description: The agent says hello.
environment:
  type: local
run:
  - input: "Say hello"
    evaluations:
      - type: string_contains
        value: hello
judgment:
  strategy: all_pass
`

// pipelineSuite is a suite of two openai agents on two models over the
// scenario, 2 repetitions, one job at a time; extra is added at the end.
func pipelineSuite(extra string) string {
	return `name: table
agents:
  - name: a
    agent: openai
  - name: b
    agent: openai
models:
  - id: m1
  - id: m2
scenarios:
  paths: [scenarios]
repetitions: 2
concurrency: 1
output: out
` + extra
}

const pipelineFixtures = `fixtures:
  repo: acme/fixtures
  manifest: fixtures/latest.json
  seed_file: seed.yaml
  seed_if_missing: true
  reseed_between_agents: true
`

// TestOnePipeline is issue 26's one table driving the three ways to run:
// the library (Kit.Run), agentevaltest and the command (run). Each row
// runs through all three, each against its own model server and fake
// GitHub, and they must record the same jobs, say the same about the run
// (warm-up, seeding, reseeding, budget), and ask the model and GitHub the
// same number of times (the warm-up's sessions and the reseeding
// included, which agentevaltest shows only that way).
//
// Not parallel: agentevaltest's agents read OPENAI_BASE_URL from the
// process environment (t.Setenv).
func TestOnePipeline(t *testing.T) {
	cases := []pipelineCase{
		{name: "suite", suite: pipelineSuite(""), jobs: 8},
		{name: "suite with warm-up", suite: pipelineSuite("warmup: true\n"), jobs: 8,
			log: map[string]int{"warm-up: 4 uncounted session(s)": 1}},
		{name: "suite with warm-up, seeding and reseeding", suite: pipelineSuite("warmup: true\n" + pipelineFixtures), jobs: 8,
			log: map[string]int{"warm-up: 4 uncounted session(s)": 1, "seeded the missing fixture manifest": 1, "fixtures reseeded before the next agent": 1}},
		{name: "suite with budget", suite: pipelineSuite("warmup: true\n"), budget: "tokens=250", tokens: 250, jobs: 3,
			log: map[string]int{"warm-up: 4 uncounted session(s)": 1, "stopped at its budget (tokens reached; used tokens 300 of 250); 5 job(s) not started": 1}},
		{name: "budget", runs: 5, budget: "tokens=250", tokens: 250, jobs: 3,
			log: map[string]int{"stopped at its budget (tokens reached; used tokens 300 of 250); 2 job(s) not started": 1}},
		{name: "within budget", runs: 2, budget: "tokens=1k", tokens: 1000, jobs: 2,
			log: map[string]int{"within its budget: used tokens 200 of 1000": 1}},
	}
	ways := []struct {
		name string
		run  func(t *testing.T, w pipelineWorld, c pipelineCase) (jobs []string, log string)
	}{
		{"library", libraryRun},
		{"agentevaltest", agentevaltestRun},
		{"command", commandRun},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			type outcome struct {
				jobs             []string
				log              string
				model, gitHubOps int
			}
			got := map[string]outcome{}
			for _, way := range ways {
				w := newPipelineWorld(t, c)
				jobs, log := way.run(t, w, c)
				slices.Sort(jobs)
				got[way.name] = outcome{jobs, log, len(w.model.Requests()), len(w.gh.Requests())}
				assert.Len(t, jobs, c.jobs, "%s: %v", way.name, jobs)
				if way.name == "agentevaltest" {
					continue // its log goes to t.Log
				}
				for line, n := range c.log {
					assert.Equal(t, n, strings.Count(log, line), "%s says %q %d time(s):\n%s", way.name, line, n, log)
				}
			}
			lib := got["library"]
			for _, way := range ways[1:] {
				o := got[way.name]
				assert.Equal(t, lib.jobs, o.jobs, "%s records the library's jobs", way.name)
				assert.Equal(t, lib.model, o.model, "%s asks the model as often as the library", way.name)
				assert.Equal(t, lib.gitHubOps, o.gitHubOps, "%s asks GitHub as often as the library", way.name)
			}
		})
	}
}

// pipelineWorld is one way's own folder, model server and fake GitHub.
type pipelineWorld struct {
	dir, suite, scenarios string
	model                 *llmtest.Server
	gh                    *githubfake.Server
	vars                  map[string]string
}

const pipelineToken = "ghp_pipelineTableTest"

func newPipelineWorld(t *testing.T, c pipelineCase) pipelineWorld {
	t.Helper()
	dir := t.TempDir()
	w := pipelineWorld{dir: dir, scenarios: filepath.Join(dir, "scenarios"), model: llmtest.NewServer(t), gh: githubfake.NewServer(t)}
	w.model.Handle(func(llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Content: "hello there", Usage: &llm.Usage{PromptTokens: 60, CompletionTokens: 40, TotalTokens: 100}}
	})
	w.gh.RequireToken(pipelineToken)
	w.gh.AddRepo("acme/fixtures")
	w.vars = map[string]string{"OPENAI_BASE_URL": w.model.URL, "OPENAI_API_KEY": w.model.Config().APIKey, "GH_TOKEN": pipelineToken}
	require.NoError(t, os.MkdirAll(w.scenarios, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(w.scenarios, "hello.scenario.yaml"), []byte(pipelineScenario), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "seed.yaml"), []byte(fixtureCLISeed), 0o644))
	if c.suite != "" {
		w.suite = filepath.Join(dir, "table.suite.yaml")
		require.NoError(t, os.WriteFile(w.suite, []byte(c.suite), 0o644))
	}
	return w
}

// config is the RunConfig the library and agentevaltest share: the suite
// (or the openai:m1 agent), the fixtures on the fake GitHub, the budget.
func (w pipelineWorld) config(t *testing.T, kit *agenteval.Kit, c pipelineCase) (agenteval.RunConfig, []*scenario.File) {
	t.Helper()
	cfg := agenteval.RunConfig{AgentOptions: runner.AgentOptions{Getenv: func(k string) string { return w.vars[k] }},
		Fixtures: github.NewManager(github.NewClient(github.Config{Token: pipelineToken, GraphQLURL: w.gh.GraphQLURL(), Timeout: time.Minute}), github.ManagerConfig{})}
	paths := []string{w.scenarios}
	if w.suite != "" {
		s, _, err := kit.Loader(scenario.Options{}).LoadSuite(w.suite, nil)
		require.NoError(t, err)
		cfg.Suite, cfg.SuiteFile, paths = s, w.suite, nil
		for _, p := range s.Scenarios.Paths {
			paths = append(paths, s.Resolve(p))
		}
	} else {
		cfg.AgentSpec, cfg.Runs, cfg.Concurrency = "openai:m1", c.runs, 1
	}
	if c.tokens > 0 {
		cfg.Budget = &runner.Budget{Tokens: c.tokens}
	}
	files, err := kit.Load(paths...)
	require.NoError(t, err)
	return cfg, files
}

func libraryRun(t *testing.T, w pipelineWorld, c pipelineCase) ([]string, string) {
	kit := agenteval.New()
	cfg, files := w.config(t, kit, c)
	var log bytes.Buffer
	cfg.Out, cfg.Log = filepath.Join(w.dir, "out"), &log
	_, err := kit.Run(t.Context(), cfg, files...)
	require.NoError(t, err, log.String())
	return pipelineJobs(t, filepath.Join(w.dir, "out", "results.jsonl")), log.String()
}

func agentevaltestRun(t *testing.T, w pipelineWorld, c pipelineCase) ([]string, string) {
	for k, v := range w.vars {
		t.Setenv(k, v) // agentevaltest builds agents with os.Getenv
	}
	cfg, _ := w.config(t, agenteval.New(), c)
	var mu sync.Mutex
	var jobs []string
	sink := sinkFunc(func(r *results.Job) error {
		mu.Lock()
		defer mu.Unlock()
		jobs = append(jobs, pipelineRow(r.ID, r.Agent, r.Model, r.Completed, r.Passed))
		return nil
	})
	agentevaltest.Run(t, agentevaltest.Config{AgentSpec: cfg.AgentSpec, Suite: cfg.Suite, Runs: cfg.Runs, Concurrency: cfg.Concurrency,
		Fixtures: cfg.Fixtures, Budget: cfg.Budget, Results: sink}, w.scenarios)
	return jobs, ""
}

func commandRun(t *testing.T, w pipelineWorld, c pipelineCase) ([]string, string) {
	args := []string{"run", "--graphql-url", w.gh.GraphQLURL()}
	if w.suite != "" {
		args = append(args, "--suite", w.suite)
	} else {
		args = append(args, "--agent", "openai:m1", "--runs", fmt.Sprint(c.runs), "--concurrency", "1", "--out", filepath.Join(w.dir, "out"))
	}
	if c.budget != "" {
		args = append(args, "--budget", c.budget)
	}
	if w.suite == "" {
		args = append(args, w.scenarios)
	}
	code, _, stderr := runCLIEnv(t, w.vars, args...)
	want := exitOK
	if strings.Contains(stderr, "stopped at its budget") {
		want = exitFail // jobs are left for --resume
	}
	require.Equal(t, want, code, stderr)
	return pipelineJobs(t, filepath.Join(w.dir, "out", "results.jsonl")), stderr
}

// pipelineJobs are a results file's jobs as pipelineRow writes them.
func pipelineJobs(t *testing.T, path string) []string {
	t.Helper()
	var out []string
	for _, j := range readSuiteJobs(t, path) {
		out = append(out, pipelineRow(j.ID, j.Agent, j.Model, j.Completed, j.Passed))
	}
	return out
}

func pipelineRow(id, agent, model string, completed, passed bool) string {
	return fmt.Sprintf("%s agent=%s model=%s completed=%v passed=%v", id, agent, model, completed, passed)
}

type sinkFunc func(*results.Job) error

func (f sinkFunc) Write(r *results.Job) error { return f(r) }
