package scale

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rhysd/actionlint"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/agenteval/agenteval/internal/testtool"
)

const workflowFile = "github-actions.yml"

// lintWorkflow runs actionlint (its Go API: it runs inside `go test`, needs
// nothing installed, and hands back errors with their positions) over a
// workflow. With shellcheck on PATH, actionlint checks every run: script
// with it too.
func lintWorkflow(t *testing.T, name string, content []byte) []*actionlint.Error {
	t.Helper()
	opts := &actionlint.LinterOptions{Shellcheck: testtool.Optional(t, "shellcheck")}
	l, err := actionlint.NewLinter(io.Discard, opts)
	require.NoError(t, err)
	errs, err := l.Lint(name, content, nil)
	require.NoError(t, err)
	return errs
}

// TestWorkflowPassesActionlint: the example workflow has no error
// actionlint finds (syntax, expressions and their types, contexts, action
// inputs, runner labels, and shellcheck on the scripts when installed), and
// the check is live: a workflow broken in the usual ways is refused.
func TestWorkflowPassesActionlint(t *testing.T) {
	t.Parallel()
	content, err := os.ReadFile(workflowFile)
	require.NoError(t, err)
	for _, e := range lintWorkflow(t, workflowFile, content) {
		t.Errorf("actionlint: %s", e)
	}
	for _, e := range pinnedInputProblems(t, content, t.Logf) {
		t.Error(e)
	}
	for _, tt := range []struct{ name, old, new, want string }{
		{"an unknown context property", "${{ matrix.shard }}/${{ strategy.job-total }} --exit-zero", "${{ matrix.shards }}/${{ strategy.job-total }} --exit-zero", `property "shards" is not defined`},
		{"a job that does not exist", "needs: shard", "needs: shards", `job "merge" needs job "shards" which does not exist`},
		{"an input the action does not have", "          retention-days: 30", "          retention: 30", `input "retention" is not defined in actions/upload-artifact v7`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			require.Contains(t, string(content), tt.old)
			broken := []byte(strings.Replace(string(content), tt.old, tt.new, 1))
			msgs := pinnedInputProblems(t, broken, func(string, ...any) {})
			for _, e := range lintWorkflow(t, workflowFile, broken) {
				msgs = append(msgs, e.Error())
			}
			assert.Contains(t, strings.Join(msgs, "\n"), tt.want)
		})
	}
}

// pinnedInputProblems checks each step's inputs against its action's own
// inputs. actionlint does this for `uses: owner/repo@vN` but cannot for an
// action pinned to a commit; the comment after the pin names the version,
// and actionlint's table of popular actions (PopularActions) knows the
// inputs of that major version. A version it does not know yet is logged,
// not guessed.
func pinnedInputProblems(t *testing.T, content []byte, logf func(string, ...any)) []string {
	t.Helper()
	versions := map[string]string{}
	for _, m := range regexp.MustCompile(`uses:\s*(\S+@[0-9a-f]{40})\s*#\s*(v\d+)\.`).FindAllStringSubmatch(string(content), -1) {
		versions[m[1]] = m[2]
	}
	var wf workflow
	require.NoError(t, yaml.Unmarshal(content, &wf))
	var problems []string
	for _, name := range slices.Sorted(maps.Keys(wf.Jobs)) {
		for _, s := range wf.Jobs[name].Steps {
			if s.Uses == "" {
				continue
			}
			action, _, _ := strings.Cut(s.Uses, "@")
			major, ok := versions[s.Uses]
			if !ok {
				problems = append(problems, fmt.Sprintf("%s: %s is not pinned to a commit with its version in a comment", name, s.Uses))
				continue
			}
			meta := actionlint.PopularActions[action+"@"+major]
			if meta == nil {
				logf("%s %s: not in actionlint's table of popular actions; its inputs were not checked", action, major)
				continue
			}
			for in := range s.With {
				if _, ok := meta.Inputs[strings.ToLower(in)]; !ok {
					problems = append(problems, fmt.Sprintf("%s: input %q is not defined in %s %s", name, in, action, major))
				}
			}
			for id, in := range meta.Inputs {
				if _, given := s.With[id]; in.Required && !given {
					problems = append(problems, fmt.Sprintf("%s: %s %s needs the input %q", name, action, major, id))
				}
			}
		}
	}
	return problems
}

// workflow is the part of a GitHub Actions workflow the tests read.
type workflow struct {
	Env  map[string]string `yaml:"env"`
	Jobs map[string]*wfJob `yaml:"jobs"`
}

type wfJob struct {
	Needs    any               `yaml:"needs"`
	If       string            `yaml:"if"`
	Env      map[string]string `yaml:"env"`
	Strategy struct {
		Matrix struct {
			Shard []int `yaml:"shard"`
		} `yaml:"matrix"`
	} `yaml:"strategy"`
	Steps []*wfStep `yaml:"steps"`
}

type wfStep struct {
	Name string            `yaml:"name"`
	ID   string            `yaml:"id"`
	If   string            `yaml:"if"`
	Uses string            `yaml:"uses"`
	With map[string]string `yaml:"with"`
	Env  map[string]string `yaml:"env"`
	Run  string            `yaml:"run"`
	Dir  string            `yaml:"working-directory"`
}

func readWorkflow(t *testing.T) *workflow {
	t.Helper()
	b, err := os.ReadFile(workflowFile)
	require.NoError(t, err)
	var wf workflow
	require.NoError(t, yaml.Unmarshal(b, &wf))
	return &wf
}

// TestWorkflowIsPinnedAndKeepsSecrets: every action is pinned to a full
// commit SHA with the version it is in a comment; secrets reach steps only
// as ${{ secrets.NAME }}; the shard job runs `agenteval run --shard i/N`
// and uploads its own artifact; the merge job needs the shards.
func TestWorkflowIsPinnedAndKeepsSecrets(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(workflowFile)
	require.NoError(t, err)
	uses := regexp.MustCompile(`(?m)^\s*(?:-\s+)?uses:\s*(\S+)(.*)$`).FindAllStringSubmatch(string(b), -1)
	require.NotEmpty(t, uses)
	for _, u := range uses {
		assert.Regexp(t, `^[\w.-]+/[\w.-]+@[0-9a-f]{40}$`, u[1], "pinned to a commit")
		assert.Regexp(t, `^\s*# v\d+\.\d+\.\d+$`, u[2], "%s says which version it is", u[1])
	}
	assert.NotRegexp(t, `gh[pousr]_[A-Za-z0-9]{20,}|github_pat_|sk-[A-Za-z0-9]{20,}`, string(b))

	wf := readWorkflow(t)
	envs := []map[string]string{wf.Env}
	for _, j := range wf.Jobs {
		envs = append(envs, j.Env)
		for _, s := range j.Steps {
			envs = append(envs, s.Env)
		}
	}
	for _, env := range envs {
		for k, v := range env {
			if secretName.MatchString(k) {
				assert.Regexp(t, `^\$\{\{ secrets\.[A-Z_]+ \}\}$`, v, "%s comes from secrets", k)
			}
		}
	}
	for _, j := range wf.Jobs {
		for _, s := range j.Steps {
			assert.NotContains(t, s.Run, "secrets.", "%q: a secret expanded into a script ends up in its text", s.Name)
		}
	}

	shard, merge := wf.Jobs["shard"], wf.Jobs["merge"]
	require.NotNil(t, shard)
	require.NotNil(t, merge)
	assert.Equal(t, "shard", merge.Needs)
	assert.Equal(t, []int{1, 2, 3, 4}, shard.Strategy.Matrix.Shard)
	var runs, uploads []string
	for _, s := range shard.Steps {
		runs = append(runs, s.Run)
		if strings.HasPrefix(s.Uses, "actions/upload-artifact@") {
			uploads = append(uploads, s.With["name"])
		}
	}
	assert.Contains(t, strings.Join(runs, "\n"), "agenteval run --shard ${{ matrix.shard }}/${{ strategy.job-total }}")
	assert.Equal(t, []string{"agenteval-shard-${{ matrix.shard }}"}, uploads, "each shard its own artifact")
	for _, j := range wf.Jobs {
		for _, s := range j.Steps {
			if strings.HasPrefix(s.Uses, "actions/upload-artifact@") {
				assert.Equal(t, "true", s.With["overwrite"], "%q: a re-run job uploads under the same name again", s.Name)
			}
		}
	}
}

// actionsRun emulates one run of the workflow on this machine, enough to
// execute its scripts for real: jobs run in dependency order (the shards in
// parallel, one per matrix value), steps in order with GitHub's `if`
// semantics, expressions substituted, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY
// files, and the actions it uses emulated: checkout (the repository, linked
// into a fresh workspace), setup-go and cache (nothing: Go and its caches
// are here), upload-artifact and download-artifact (folders). An expression
// or action it does not know fails the test, so the workflow stays within
// what is checked here.
type actionsRun struct {
	t         *testing.T
	wf        *workflow
	root      string            // the repository
	dir       string            // this run's folder
	artifacts string            // artifacts by name
	tools     string            // commands the runner has besides the job's own (gh), on PATH
	env       map[string]string // the runner's own environment, on top of the workflow's
	github    map[string]string // github.* values
	overrides map[string]string // workflow env values replaced, as a user edits them
	filesOnce sync.Once
	files     []string // the repository's files, for checkout
}

// jobResult is what one job of the run did.
type jobResult struct {
	bin     string // the job's GOBIN: each job has its own machine
	failed  bool
	summary string
	log     strings.Builder
	outputs map[string]map[string]string // step id → outputs
}

func newActionsRun(t *testing.T, name, tools string) *actionsRun {
	dir := filepath.Join(t.TempDir(), name)
	r := &actionsRun{t: t, wf: readWorkflow(t), root: repoRoot(t), dir: dir, artifacts: filepath.Join(dir, "artifacts"), tools: tools,
		env: map[string]string{}, overrides: map[string]string{},
		github: map[string]string{"run_id": "1", "base_ref": "", "event.repository.default_branch": "main"}}
	require.NoError(t, os.MkdirAll(r.artifacts, 0o755))
	return r
}

// run runs every job; it returns each job's results (a matrix job's by
// "name/value").
func (r *actionsRun) run() map[string]*jobResult {
	shard := r.wf.Jobs["shard"]
	results := map[string]*jobResult{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, v := range shard.Strategy.Matrix.Shard {
		wg.Add(1)
		go func(v int) {
			defer wg.Done()
			res := r.job("shard", shard, map[string]string{"matrix.shard": fmt.Sprint(v), "strategy.job-total": fmt.Sprint(len(shard.Strategy.Matrix.Shard))})
			mu.Lock()
			results[fmt.Sprintf("shard/%d", v)] = res
			mu.Unlock()
		}(v)
	}
	wg.Wait()
	require.Equal(r.t, "${{ !cancelled() }}", r.wf.Jobs["merge"].If, "the merge runs after failed shards too")
	results["merge"] = r.job("merge", r.wf.Jobs["merge"], nil)
	require.Len(r.t, r.wf.Jobs, 2, "the emulation knows two jobs")
	return results
}

var exprRE = regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`)

// eval evaluates the expressions this workflow uses.
func (r *actionsRun) eval(expr string, ctx map[string]string, res *jobResult) string {
	var alternatives []string
	for _, alt := range strings.Split(expr, "||") {
		alternatives = append(alternatives, strings.TrimSpace(alt))
	}
	for _, e := range alternatives {
		var v string
		var ok bool
		switch {
		case strings.HasPrefix(e, "secrets."):
			v, ok = r.env["SECRET_"+strings.TrimPrefix(e, "secrets.")], true
		case strings.HasPrefix(e, "github."):
			v, ok = r.github[strings.TrimPrefix(e, "github.")]
		case strings.HasPrefix(e, "env."):
			v, ok = r.wf.Env[strings.TrimPrefix(e, "env.")]
		case strings.HasPrefix(e, "steps."):
			parts := strings.Split(e, ".")
			if len(parts) == 4 && parts[2] == "outputs" {
				v, ok = res.outputs[parts[1]][parts[3]], true
			}
		default:
			v, ok = ctx[e]
		}
		require.True(r.t, ok, "the emulation does not know the expression %q", e)
		if v != "" {
			return v
		}
	}
	return ""
}

func (r *actionsRun) expand(s string, ctx map[string]string, res *jobResult) string {
	return exprRE.ReplaceAllStringFunc(s, func(m string) string {
		return r.eval(exprRE.FindStringSubmatch(m)[1], ctx, res)
	})
}

// cond decides a step's `if`, with GitHub's implicit success() when the
// condition names no status function.
func (r *actionsRun) cond(expr string, ctx map[string]string, res *jobResult) bool {
	expr = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(expr), "${{"), "}}"))
	switch {
	case expr == "":
		return !res.failed
	case expr == "!cancelled()" || expr == "always()":
		return true
	}
	if m := regexp.MustCompile(`^(\S+)\s*==\s*'([^']*)'$`).FindStringSubmatch(expr); m != nil {
		return !res.failed && r.eval(m[1], ctx, res) == m[2]
	}
	r.t.Fatalf("the emulation does not know the condition %q", expr)
	return false
}

func (r *actionsRun) job(name string, job *wfJob, ctx map[string]string) *jobResult {
	t := r.t
	res := &jobResult{outputs: map[string]map[string]string{}, bin: filepath.Join(r.dir, "bin-"+name+"-"+ctx["matrix.shard"])}
	ws := filepath.Join(r.dir, "workspace-"+name+"-"+ctx["matrix.shard"])
	require.NoError(t, os.MkdirAll(ws, 0o755))
	require.NoError(t, os.MkdirAll(res.bin, 0o755))
	summary := filepath.Join(r.dir, "summary-"+name+"-"+ctx["matrix.shard"]+".md")
	require.NoError(t, os.WriteFile(summary, nil, 0o644))
	for _, step := range job.Steps {
		if !r.cond(step.If, ctx, res) {
			fmt.Fprintf(&res.log, "step %q skipped\n", step.Name)
			continue
		}
		with := map[string]string{}
		for k, v := range step.With {
			with[k] = r.expand(v, ctx, res)
		}
		var err error
		switch action, _, _ := strings.Cut(step.Uses, "@"); action {
		case "":
			err = r.script(step, ws, summary, ctx, res)
		case "actions/checkout":
			err = r.checkout(ws)
		case "actions/setup-go", "actions/cache":
		case "actions/upload-artifact":
			err = r.upload(ws, with)
		case "actions/download-artifact":
			err = r.download(ws, with)
		default:
			t.Fatalf("the emulation does not know the action %s", step.Uses)
		}
		if err != nil {
			fmt.Fprintf(&res.log, "step %q failed: %v\n", step.Name, err)
			res.failed = true
		}
	}
	b, err := os.ReadFile(summary)
	require.NoError(t, err)
	res.summary = string(b)
	return res
}

// checkout copies the repository's files into the workspace, as
// actions/checkout does: what git tracks (and, while developing, what it
// would), no ignored build output, and nothing written there reaches the
// repository.
func (r *actionsRun) checkout(ws string) error {
	r.filesOnce.Do(func() {
		cmd := exec.Command(testtool.Need(r.t, "git"), "ls-files", "-z", "--cached", "--others", "--exclude-standard")
		cmd.Dir = r.root
		out, err := cmd.Output()
		if err != nil {
			r.t.Fatalf("the checkout emulation lists the repository's files with git: %v", err)
		}
		for _, f := range strings.Split(string(out), "\x00") {
			if f != "" {
				r.files = append(r.files, f)
			}
		}
	})
	for _, f := range r.files {
		if _, err := os.Stat(filepath.Join(r.root, f)); errors.Is(err, fs.ErrNotExist) {
			continue // deleted in the work tree, not yet in the index
		}
		if err := copyFile(filepath.Join(r.root, f), filepath.Join(ws, f)); err != nil {
			return err
		}
	}
	return nil
}

func (r *actionsRun) script(step *wfStep, ws, summary string, ctx map[string]string, res *jobResult) error {
	env := map[string]string{}
	for k, v := range r.wf.Env {
		env[k] = r.expand(v, ctx, res)
	}
	for k, v := range r.overrides {
		env[k] = v
	}
	for k, v := range step.Env {
		env[k] = r.expand(v, ctx, res)
	}
	for k, v := range r.env {
		if !strings.HasPrefix(k, "SECRET_") {
			env[k] = v
		}
	}
	output := filepath.Join(r.dir, "output")
	if err := os.WriteFile(output, nil, 0o644); err != nil {
		return err
	}
	env["GITHUB_OUTPUT"] = output
	env["GITHUB_STEP_SUMMARY"] = summary
	env["GITHUB_WORKSPACE"] = ws
	env["GITHUB_REPOSITORY"] = "octo/evals"
	env["GITHUB_WORKFLOW_REF"] = "octo/evals/.github/workflows/agenteval.yml@refs/heads/main"
	env["GOBIN"] = res.bin
	// Every job has its own workspace, as every GitHub job its own machine;
	// -trimpath keeps the folder out of the build cache's keys, so the
	// jobs' `go install` reuse one build instead of compiling once each.
	env["GOFLAGS"] = strings.TrimSpace(os.Getenv("GOFLAGS") + " -trimpath")
	env["PATH"] = strings.Join([]string{res.bin, r.tools, os.Getenv("PATH")}, string(os.PathListSeparator))
	// GitHub's default for a run: step on Linux is bash -e {0}.
	cmd := exec.Command("bash", "-e", "-c", r.expand(step.Run, ctx, res))
	cmd.Dir = filepath.Join(ws, step.Dir)
	cmd.Env = cleanEnv(env)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	fmt.Fprintf(&res.log, "--- %s (%v)\n%s", r.expand(step.Name, ctx, res), time.Since(start).Round(time.Millisecond), out.String())
	if step.ID != "" {
		b, rerr := os.ReadFile(output)
		if rerr != nil {
			return rerr
		}
		res.outputs[step.ID] = map[string]string{}
		for _, line := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(line, "="); ok {
				res.outputs[step.ID][k] = v
			}
		}
	}
	return err
}

// upload copies a file or folder of the workspace into the named artifact;
// a name can be uploaded once per run unless overwrite is true, as with
// upload-artifact v4 and later.
func (r *actionsRun) upload(ws string, with map[string]string) error {
	dst := filepath.Join(r.artifacts, with["name"])
	if _, err := os.Stat(dst); err == nil {
		if with["overwrite"] != "true" {
			return fmt.Errorf("artifact %s uploaded twice", with["name"])
		}
		if err := os.RemoveAll(dst); err != nil {
			return err
		}
	}
	src := filepath.Join(ws, with["path"])
	st, err := os.Stat(src)
	if err != nil {
		if with["if-no-files-found"] == "error" {
			return fmt.Errorf("no files at %s", with["path"])
		}
		return nil
	}
	if !st.IsDir() {
		return copyFile(src, filepath.Join(dst, filepath.Base(src)))
	}
	return copyTree(src, dst)
}

// download copies the artifacts a pattern matches into path/NAME each (or
// the named one into path), as download-artifact does without merge-multiple.
func (r *actionsRun) download(ws string, with map[string]string) error {
	require.Empty(r.t, with["merge-multiple"], "the emulation downloads into one folder per artifact")
	dst := filepath.Join(ws, with["path"])
	entries, err := os.ReadDir(r.artifacts)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if with["name"] != "" {
			if e.Name() == with["name"] {
				return copyTree(filepath.Join(r.artifacts, e.Name()), dst)
			}
			continue
		}
		if ok, _ := filepath.Match(with["pattern"], e.Name()); ok {
			if err := copyTree(filepath.Join(r.artifacts, e.Name()), filepath.Join(dst, e.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}

func copyFile(src, dst string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	st, err := os.Stat(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return os.WriteFile(dst, b, st.Mode().Perm())
}

func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		return copyFile(path, filepath.Join(dst, rel))
	})
}

// fakeGH writes a gh command that answers the workflow's two calls: `run
// list` prints the baseline run's id (none when GH_FAKE_RUN is empty) and
// `run download` copies the artifact folder GH_FAKE_ARTIFACT. Every call is
// logged to GH_FAKE_LOG.
func fakeGH(t *testing.T, bin string) {
	t.Helper()
	require.NoError(t, os.WriteFile(filepath.Join(bin, "gh"), []byte(`#!/bin/sh
echo "gh $*" >> "$GH_FAKE_LOG"
[ -n "$GH_TOKEN" ] || { echo "gh: no GH_TOKEN" >&2; exit 4; }
case "$1 $2" in
"run list") [ -z "$GH_FAKE_RUN" ] || echo "$GH_FAKE_RUN" ;;
"run download")
  [ "$3" = "$GH_FAKE_RUN" ] || { echo "gh: no run $3" >&2; exit 1; }
  dir=.
  while [ $# -gt 0 ]; do
    case "$1" in --dir) dir=$2; shift ;; --name) name=$2; shift ;; esac
    shift
  done
  [ "$name" = agenteval-results ] || { echo "gh: no artifact $name" >&2; exit 1; }
  mkdir -p "$dir" && cp -R "$GH_FAKE_ARTIFACT/." "$dir/" ;;
*) echo "gh: unexpected call: $*" >&2; exit 1 ;;
esac
`), 0o755))
}

// TestWorkflowRunsLocally runs the workflow's own scripts three times, as
// three pushes would: on main with no baseline yet, on a pull request with
// the same agent (the gate passes) and on one whose agent regressed (the
// gate fails the workflow). The 4 shards merge to exactly the unsharded
// run; the job summary holds the Markdown report, the report artifact the
// HTML and JUnit reports, and the results artifact the next run's baseline.
func TestWorkflowRunsLocally(t *testing.T) {
	if testing.Short() {
		t.Skip("builds agenteval as the workflow does and runs 84 jobs several times")
	}
	testtool.Need(t, "bash")
	t.Parallel()
	suite := makeSuite(t)
	tools := filepath.Join(t.TempDir(), "tools")
	require.NoError(t, os.MkdirAll(tools, 0o755))
	fakeGH(t, tools)
	ghLog := filepath.Join(t.TempDir(), "gh.log")

	first := newActionsRun(t, "main", tools)
	first.overrides["SUITE"] = suite
	first.env["GH_FAKE_LOG"] = ghLog
	first.env["SECRET_GITHUB_TOKEN"] = "ghs_placeholder_for_the_fake_gh_000000"
	jobs := first.run()
	for name, j := range jobs {
		require.False(t, j.failed, "%s:\n%s", name, j.log.String())
	}
	merge := jobs["merge"]
	assert.Contains(t, merge.summary, "# agenteval report")
	assert.Contains(t, merge.summary, "| Jobs recorded | 84 of 84 |")
	assert.Contains(t, merge.summary, "shards 1/4, 2/4, 3/4, 4/4")
	assert.Contains(t, merge.log.String(), "no successful run on main with results yet")
	assert.Contains(t, merge.log.String(), `step "Compare with the baseline" skipped`)
	html, err := os.ReadFile(filepath.Join(first.artifacts, "agenteval-report", "agenteval.html"))
	require.NoError(t, err)
	assert.Contains(t, string(html), "<html")
	junit, err := os.ReadFile(filepath.Join(first.artifacts, "agenteval-report", "junit.xml"))
	require.NoError(t, err)
	var suites struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
	}
	require.NoError(t, xml.Unmarshal(junit, &suites))
	assert.Equal(t, 84, suites.Tests)

	// The shards' artifacts equal one unsharded run of the same suite.
	bin := jobs["shard/1"].bin // agenteval and demo-agent as the workflow installed them
	whole := filepath.Join(t.TempDir(), "whole")
	cmd := exec.Command(filepath.Join(bin, "agenteval"), "run", "--exit-zero", "--agent", "exec:demo-agent", "--out", whole, suite)
	cmd.Env = cleanEnv(map[string]string{"PATH": bin + string(os.PathListSeparator) + os.Getenv("PATH")})
	b, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", b)
	var shardFiles []string
	for i := 1; i <= 4; i++ {
		shardFiles = append(shardFiles, filepath.Join(first.artifacts, fmt.Sprintf("agenteval-shard-%d", i), "results.jsonl"))
	}
	requireShardsEqualWhole(t, filepath.Join(whole, "results.jsonl"), 4, shardFiles)
	baseline := filepath.Join(first.artifacts, "agenteval-results")
	assert.Len(t, findResults(t, baseline), 4, "the baseline artifact holds the 4 shards")

	// A pull request, same agent: compared with main's run, no regression.
	same := newActionsRun(t, "pr-same", tools)
	same.github["base_ref"] = "main"
	same.overrides["SUITE"] = suite
	for k, v := range first.env {
		same.env[k] = v
	}
	same.env["GH_FAKE_RUN"] = "1001"
	same.env["GH_FAKE_ARTIFACT"] = baseline
	jobs = same.run()
	for name, j := range jobs {
		require.False(t, j.failed, "%s:\n%s", name, j.log.String())
	}
	assert.Contains(t, jobs["merge"].summary, "# agenteval comparison")
	assert.Contains(t, jobs["merge"].summary, "No significant regression")
	assert.Contains(t, jobs["merge"].log.String(), "Baseline: run 1001 on main")

	// A pull request whose agent lost the weather tool: the shards succeed
	// (their failures are the merge's to judge) and the gate fails.
	worse := newActionsRun(t, "pr-worse", tools)
	worse.github["base_ref"] = "main"
	worse.overrides["SUITE"] = suite
	worse.overrides["AGENT"] = "echo"
	for k, v := range same.env {
		worse.env[k] = v
	}
	jobs = worse.run()
	for name, j := range jobs {
		if name != "merge" {
			require.False(t, j.failed, "%s:\n%s", name, j.log.String())
		}
	}
	require.True(t, jobs["merge"].failed, "the gate fails the workflow:\n%s", jobs["merge"].log.String())
	assert.Contains(t, jobs["merge"].log.String(), `step "Compare with the baseline" failed`)
	assert.Contains(t, jobs["merge"].log.String(), "significant regression(s)")
	assert.Contains(t, jobs["merge"].summary, "# agenteval comparison")
	assert.FileExists(t, filepath.Join(worse.artifacts, "agenteval-report", "agenteval.html"), "the report is uploaded before the gate")

	calls, err := os.ReadFile(ghLog)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(calls)), "\n")
	sort.Strings(lines)
	lines = slices.Compact(lines)
	assert.Equal(t, []string{
		"gh run download 1001 --repo octo/evals --name agenteval-results --dir baseline",
		"gh run list --repo octo/evals --workflow agenteval.yml --branch main --status success --limit 1 --json databaseId --jq .[0].databaseId // empty",
	}, lines)
}
