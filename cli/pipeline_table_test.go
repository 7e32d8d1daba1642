package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
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
	"github.com/agenteval/agenteval/matrix"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/runner"
	"github.com/agenteval/agenteval/scenario"
)

// pipelineCase is one row of TestOnePipeline: a run given as a suite file
// (or a plain run of the scenario), made of one or more steps in the same
// folder (a first run, then its resume or retry; or one run per shard),
// and what every way of running it must do alike.
type pipelineCase struct {
	name string
	// suite is the suite file's text ("" for a plain run of the scenario
	// with the openai:m1 agent, runs times).
	suite string
	runs  int
	// steps are the runs made one after the other; none is one plain run.
	steps []pipelineStep
	// failFirst is how many of the first model requests are refused (a
	// 400, which no retry helps): the jobs they answer end incomplete.
	failFirst int
	// jobs are how many job records the steps write in all (the warm-up's
	// are not counted; a retried job's records each count).
	jobs int
	// log counts lines the run says (library and command alike).
	log map[string]int
	// notInTests says why agentevaltest does not run the row ("": it does).
	notInTests string
}

// pipelineStep is one run of a row: its budget (run's --budget; tokens the
// same as the library's Budget), whether it resumes or retries the
// recorded run, and its shard and results folder.
type pipelineStep struct {
	budget string
	tokens int64
	resume bool
	retry  string
	shard  string
	out    string // "" is "out"
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
	budget := func(spec string, tokens int64) []pipelineStep {
		return []pipelineStep{{budget: spec, tokens: tokens}}
	}
	const noFolder = "agentevaltest writes no results folder (a test reruns all its jobs), so it has nothing to resume or retry"
	cases := []pipelineCase{
		{name: "suite", suite: pipelineSuite(""), jobs: 8},
		{name: "suite with warm-up", suite: pipelineSuite("warmup: true\n"), jobs: 8,
			log: map[string]int{"warm-up: 4 uncounted session(s)": 1}},
		{name: "suite with warm-up, seeding and reseeding", suite: pipelineSuite("warmup: true\n" + pipelineFixtures), jobs: 8,
			log: map[string]int{"warm-up: 4 uncounted session(s)": 1, "seeded the missing fixture manifest": 1, "fixtures reseeded before the next agent": 1}},
		{name: "suite with budget", suite: pipelineSuite("warmup: true\n"), steps: budget("tokens=250", 250), jobs: 3,
			log: map[string]int{"warm-up: 4 uncounted session(s)": 1, "stopped at its budget (tokens reached; used tokens 300 of 250); 5 job(s) not started": 1}},
		{name: "budget", runs: 5, steps: budget("tokens=250", 250), jobs: 3,
			log: map[string]int{"stopped at its budget (tokens reached; used tokens 300 of 250); 2 job(s) not started": 1}},
		{name: "within budget", runs: 2, steps: budget("tokens=1k", 1000), jobs: 2,
			log: map[string]int{"within its budget: used tokens 200 of 1000": 1}},
		{name: "resume after the budget", runs: 5, steps: []pipelineStep{{budget: "tokens=250", tokens: 250}, {resume: true}}, jobs: 5,
			log: map[string]int{"2 job(s) not started": 1}, notInTests: noFolder},
		{name: "suite resumed after its budget", suite: pipelineSuite("warmup: true\n"), steps: []pipelineStep{{budget: "tokens=250", tokens: 250}, {resume: true}}, jobs: 8,
			log: map[string]int{"warm-up: 4 uncounted session(s)": 2, "5 job(s) not started": 1}, notInTests: noFolder},
		{name: "retry incomplete", runs: 4, failFirst: 3, steps: []pipelineStep{{}, {retry: "incomplete"}}, jobs: 5, notInTests: noFolder},
		{name: "suite retry incomplete", suite: pipelineSuite(""), failFirst: 3, steps: []pipelineStep{{}, {retry: "incomplete"}}, jobs: 9, notInTests: noFolder},
		{name: "shards", runs: 5, steps: []pipelineStep{{shard: "1/2", out: "out1"}, {shard: "2/2", out: "out2"}}, jobs: 5},
		{name: "suite shards", suite: pipelineSuite("warmup: true\n"), steps: []pipelineStep{{shard: "1/3", out: "out1"}, {shard: "2/3", out: "out2"}, {shard: "3/3", out: "out3"}}, jobs: 8,
			log: map[string]int{"warm-up: 4 uncounted session(s)": 3}},
	}
	ways := []struct {
		name string
		run  func(t *testing.T, w pipelineWorld, c pipelineCase, s pipelineStep) (jobs []string, log string)
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
				files            []string // the results files' records, as sameRecords keeps them
			}
			steps := c.steps
			if len(steps) == 0 {
				steps = []pipelineStep{{}}
			}
			got := map[string]outcome{}
			for _, way := range ways {
				if way.name == "agentevaltest" && c.notInTests != "" {
					t.Logf("agentevaltest: %s", c.notInTests)
					continue
				}
				w := newPipelineWorld(t, c)
				var o outcome
				for _, s := range steps {
					jobs, log := way.run(t, w, c, s)
					o.jobs = append(o.jobs, jobs...)
					o.log += log
				}
				slices.Sort(o.jobs)
				o.model, o.gitHubOps = len(w.model.Requests()), len(w.gh.Requests())
				if way.name != "agentevaltest" {
					for _, st := range steps {
						o.files = append(o.files, sameRecords(t, w, st)...)
					}
					slices.Sort(o.files)
				}
				got[way.name] = o
				assert.Len(t, o.jobs, c.jobs, "%s: %v", way.name, o.jobs)
				if way.name == "agentevaltest" {
					continue // its log goes to t.Log
				}
				for line, n := range c.log {
					assert.Equal(t, n, strings.Count(o.log, line), "%s says %q %d time(s):\n%s", way.name, line, n, o.log)
				}
			}
			lib := got["library"]
			for _, way := range ways[1:] {
				o, ok := got[way.name]
				if !ok {
					continue
				}
				assert.Equal(t, lib.jobs, o.jobs, "%s records the library's jobs", way.name)
				assert.Equal(t, lib.model, o.model, "%s asks the model as often as the library", way.name)
				assert.Equal(t, lib.gitHubOps, o.gitHubOps, "%s asks GitHub as often as the library", way.name)
				if o.files != nil {
					assert.Equal(t, lib.files, o.files, "%s writes the library's results files", way.name)
				}
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
	var asked atomic.Int64
	w.model.Handle(func(llmtest.Request) llmtest.Reply {
		if asked.Add(1) <= int64(c.failFirst) {
			return llmtest.Error(400, "invalid_request_error", "refused by the table")
		}
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
// (or the openai:m1 agent), the fixtures on the fake GitHub, the step's
// budget and shard.
func (w pipelineWorld) config(t *testing.T, kit *agenteval.Kit, c pipelineCase, step pipelineStep) (agenteval.RunConfig, []*scenario.File) {
	t.Helper()
	cfg := agenteval.RunConfig{AgentOptions: runner.AgentOptions{Getenv: func(k string) string { return w.vars[k] }}, Seed: 1, // run's --seed default

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
	if step.tokens > 0 {
		cfg.Budget = &runner.Budget{Tokens: step.tokens}
	}
	if step.shard != "" {
		sh, err := matrix.ParseShard(step.shard)
		require.NoError(t, err)
		cfg.Shard = sh
	}
	files, err := kit.Load(paths...)
	require.NoError(t, err)
	return cfg, files
}

// out is the step's results folder.
func (w pipelineWorld) out(step pipelineStep) string {
	if step.out != "" {
		return filepath.Join(w.dir, step.out)
	}
	return filepath.Join(w.dir, "out")
}

// stepJobs are the job records a step added to its results folder (the
// records it found there when it started left out).
func (w pipelineWorld) stepJobs(t *testing.T, step pipelineStep, before []string) []string {
	jobs := pipelineJobs(t, filepath.Join(w.out(step), "results.jsonl"))
	require.GreaterOrEqual(t, len(jobs), len(before))
	require.Equal(t, before, slices.Clip(jobs[:len(before):len(before)]), "a step only appends")
	return jobs[len(before):]
}

func (w pipelineWorld) recorded(t *testing.T, step pipelineStep) []string {
	path := filepath.Join(w.out(step), "results.jsonl")
	if _, err := os.Stat(path); err != nil {
		return []string{}
	}
	return pipelineJobs(t, path)
}

func libraryRun(t *testing.T, w pipelineWorld, c pipelineCase, step pipelineStep) ([]string, string) {
	kit := agenteval.New()
	cfg, files := w.config(t, kit, c, step)
	var log bytes.Buffer
	cfg.Out, cfg.Log = w.out(step), &log
	cfg.Resume, cfg.Retry = step.resume, step.retry
	before := w.recorded(t, step)
	_, err := kit.Run(t.Context(), cfg, files...)
	require.NoError(t, err, log.String())
	return w.stepJobs(t, step, before), log.String()
}

func agentevaltestRun(t *testing.T, w pipelineWorld, c pipelineCase, step pipelineStep) ([]string, string) {
	for k, v := range w.vars {
		t.Setenv(k, v) // agentevaltest builds agents with os.Getenv
	}
	cfg, _ := w.config(t, agenteval.New(), c, step)
	var mu sync.Mutex
	var jobs []string
	sink := sinkFunc(func(r *results.Job) error {
		mu.Lock()
		defer mu.Unlock()
		jobs = append(jobs, pipelineRow(r.ID, r.Agent, r.Model, r.Completed, r.Passed))
		return nil
	})
	agentevaltest.Run(t, agentevaltest.Config{AgentSpec: cfg.AgentSpec, Suite: cfg.Suite, Runs: cfg.Runs, Concurrency: cfg.Concurrency,
		Shard: cfg.Shard, Seed: cfg.Seed, Fixtures: cfg.Fixtures, Budget: cfg.Budget, Results: sink}, w.scenarios)
	return jobs, ""
}

func commandRun(t *testing.T, w pipelineWorld, c pipelineCase, step pipelineStep) ([]string, string) {
	args := []string{"run", "--graphql-url", w.gh.GraphQLURL()}
	if w.suite != "" {
		args = append(args, "--suite", w.suite)
		if step.out != "" {
			args = append(args, "--out", w.out(step))
		}
	} else {
		args = append(args, "--agent", "openai:m1", "--runs", fmt.Sprint(c.runs), "--concurrency", "1", "--out", w.out(step))
	}
	if step.budget != "" {
		args = append(args, "--budget", step.budget)
	}
	if step.resume {
		args = append(args, "--resume")
	}
	if step.retry != "" {
		args = append(args, "--retry", step.retry)
	}
	if step.shard != "" {
		args = append(args, "--shard", step.shard)
	}
	if w.suite == "" {
		args = append(args, w.scenarios)
	}
	before := w.recorded(t, step)
	code, _, stderr := runCLIEnv(t, w.vars, args...)
	require.NotEqual(t, exitUsage, code, stderr)
	jobs := w.stepJobs(t, step, before)
	want := exitOK
	if strings.Contains(stderr, "stopped at its budget") || slices.ContainsFunc(jobs, func(j string) bool { return !strings.HasSuffix(j, "passed=true") }) {
		want = exitFail // jobs are left for --resume, or did not pass
	}
	require.Equal(t, want, code, stderr)
	return jobs, stderr
}

// sameRecords are the records of a step's results file as two ways of
// running the same thing must write them alike: every record (plan, job,
// budget) with its keys sorted, paths relative to the world's folder, and
// without what differs from run to run (run ids, times, durations) or with
// what the command adds to the library's configuration (its user and
// judge model names in settings, the estimate and each job's cost, which
// it prices by its price table).
func sameRecords(t *testing.T, w pipelineWorld, step pipelineStep) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(w.out(step), "results.jsonl"))
	require.NoError(t, err)
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var rec map[string]any
		require.NoError(t, json.Unmarshal([]byte(line), &rec), line)
		out = append(out, filepath.Base(w.out(step))+": "+string(must(json.Marshal(comparable(rec, w.dir)))))
	}
	return out
}

// comparable drops the keys sameRecords leaves out and makes paths under
// dir relative (in text too: a suite's plan names it "suite:PATH"), in v
// and everything it holds.
func comparable(v any, dir string) any {
	switch x := v.(type) {
	case map[string]any:
		for _, k := range []string{"run_id", "started", "ended", "at", "duration", "duration_ms", "time_ms", "settings", "estimate", "cost"} {
			delete(x, k)
		}
		for k, e := range x {
			x[k] = comparable(e, dir)
		}
		if x["path"] == "fixtures/latest.json" {
			delete(x, "sha256") // the manifest seeding wrote holds its createdAt
		}
	case []any:
		for i, e := range x {
			x[i] = comparable(e, dir)
		}
	case string:
		return strings.ReplaceAll(x, dir+string(filepath.Separator), "")
	}
	return v
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// pipelineJobs are a results file's jobs as pipelineRow writes them.
func pipelineJobs(t *testing.T, path string) []string {
	t.Helper()
	out := []string{}
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
