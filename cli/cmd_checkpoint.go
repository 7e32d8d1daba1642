package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/agenteval/agenteval/checkpoint"
	"github.com/agenteval/agenteval/fixture"
	"github.com/agenteval/agenteval/github"
	"github.com/agenteval/agenteval/scenario"
)

// checkpointScenario is one scenario's checkpoints, bound and ready to score.
type checkpointScenario struct {
	File   string            `json:"file"`
	ID     string            `json:"id"`
	Report checkpoint.Report `json:"report"`

	checkpoints []scenario.Checkpoint
}

func runCheckpoint(ctx context.Context, env *cliEnv, args []string) int {
	fs := newFlags(env, "checkpoint", "[--manifest M] [--graphql-url U] [--format text|json] SCENARIO... | --tasks")
	manifestPath := fs.String("manifest", "", "fixture manifest whose facts bind the scenarios' {{placeholders}}")
	graphqlURL := fs.String("graphql-url", "", "GitHub GraphQL endpoint (default "+github.DefaultGraphQLURL+")")
	restURL := fs.String("rest-url", "", "GitHub REST API root (default: derived from --graphql-url)")
	format := fs.String("format", "text", "output format: text or json")
	concurrency := fs.Int("concurrency", 1, "checkpoints of a scenario scored at once")
	tasks := fs.Bool("tasks", false, "list the capability tasks checkpoints can run, with their inputs and outputs")
	if code, ok := fs.parse(args); !ok {
		return code
	}
	env.redactor.AddURL(*graphqlURL)
	env.redactor.AddURL(*restURL)
	if *tasks {
		printTasks(env.stdout)
		return exitOK
	}
	switch {
	case !fs.oneOf("format", *format, "text", "json"):
		return exitUsage
	case *concurrency < 1:
		return fs.badValue("concurrency", *concurrency, "want at least 1")
	case fs.NArg() == 0:
		fs.Usage()
		return exitUsage
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(env.stderr, "agenteval checkpoint: "+format+"\n", a...)
		return exitUsage
	}

	var manifest *scenario.Manifest
	if *manifestPath != "" {
		m, err := fixture.LoadManifest(*manifestPath)
		if err != nil {
			return fail("%v", err)
		}
		manifest = m
	}
	loader := env.kit.Loader(scenario.Options{})
	var scenarios []*checkpointScenario
	for _, path := range fs.Args() {
		s, err := loadCheckpoints(loader, path, manifest)
		if err != nil {
			return fail("%v", err)
		}
		scenarios = append(scenarios, s)
	}

	token := env.getenv("GITHUB_TOKEN")
	if token == "" {
		token = env.getenv("GH_TOKEN")
	}
	if token == "" && *graphqlURL == "" {
		return fail("set GITHUB_TOKEN or GH_TOKEN to a token that can read the repositories the checkpoints query")
	}
	client := github.NewClient(github.Config{Token: token, GraphQLURL: *graphqlURL, RESTURL: *restURL})
	exec := github.NewExecutor(client, github.ExecutorOptions{})
	checker := checkpoint.Checker{Executor: exec, Conditions: env.kit.Conditions, Concurrency: *concurrency}

	allPassed := true
	for _, s := range scenarios {
		s.Report = checker.Score(ctx, s.checkpoints)
		allPassed = allPassed && s.Report.Passed
	}
	if *format == "json" {
		enc := json.NewEncoder(env.stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		_ = enc.Encode(map[string]any{"passed": allPassed, "scenarios": scenarios})
	} else {
		for _, s := range scenarios {
			printCheckpointReport(env.stdout, s)
		}
	}
	if !allPassed {
		return exitFail
	}
	return exitOK
}

// loadCheckpoints loads one scenario file and binds its checkpoints'
// placeholders with the manifest's facts. Only the checkpoints are bound, so
// a placeholder the prompt uses but the checkpoints do not never stops
// scoring. Without a manifest, a checkpoint that still holds a placeholder
// is an error: sent to GitHub verbatim, it would fail for the wrong reason.
func loadCheckpoints(l *scenario.Loader, path string, m *scenario.Manifest) (*checkpointScenario, error) {
	f, err := l.LoadFile(path)
	if err != nil {
		return nil, err // diagnostics name the file
	}
	if f.Scenario == nil {
		return nil, fmt.Errorf("%s: a %s file has no checkpoints; give a scenario", path, f.Kind)
	}
	part := &scenario.Scenario{Checkpoints: f.Scenario.Checkpoints}
	if m != nil {
		part.Fixture = f.Scenario.Fixture
	}
	bound, err := fixture.Bind(part, m, nil)
	if err != nil {
		if m == nil {
			return nil, fmt.Errorf("%s: checkpoints use placeholders; pass --manifest to bind them:\n%w", path, err)
		}
		return nil, fmt.Errorf("%s:\n%w", path, err)
	}
	return &checkpointScenario{File: path, ID: f.Scenario.ID, checkpoints: bound.Checkpoints}, nil
}

// printCheckpointReport writes one scenario's verdicts: a line per
// checkpoint with its expectation and what was found, the data when a check
// failed, and a summary line.
func printCheckpointReport(w io.Writer, s *checkpointScenario) {
	fmt.Fprintf(w, "%s (%s)\n", s.ID, s.File)
	for _, r := range s.Report.Results {
		verdict := "ok  "
		switch {
		case r.Err != nil:
			verdict = "ERR "
		case !r.Passed:
			verdict = "FAIL"
		}
		fmt.Fprintf(w, "  %s %s [%s]\n", verdict, r.ID, r.Task)
		fmt.Fprintf(w, "       expected: %s\n", r.Expected)
		if r.Err != nil {
			fmt.Fprintf(w, "       error:    %s\n", r.Error)
			var ce *checkpoint.Error
			if !(errors.As(r.Err, &ce) && ce.Panic == nil) && r.Message != "" {
				fmt.Fprintf(w, "       found:    %s\n", r.Message)
			}
			continue
		}
		fmt.Fprintf(w, "       found:    %s\n", r.Message)
		if !r.Passed {
			fmt.Fprintf(w, "       actual:   %s\n", clip(r.Actual, 400))
		}
	}
	switch {
	case s.Report.Total == 0:
		fmt.Fprintf(w, "FAIL %s: %v\n", s.ID, checkpoint.ErrNoCheckpoints)
	case s.Report.Passed:
		fmt.Fprintf(w, "PASS %s: %d/%d checkpoints passed\n", s.ID, s.Report.PassedCount, s.Report.Total)
	default:
		fmt.Fprintf(w, "FAIL %s: %d/%d checkpoints passed\n", s.ID, s.Report.PassedCount, s.Report.Total)
	}
}

// clip renders v as JSON cut to at most n runes.
func clip(v any, n int) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	if utf8.RuneCount(b) <= n {
		return string(b)
	}
	return string([]rune(string(b))[:n]) + "…"
}

// printTasks lists the tasks of the GitHub executor: name, what it returns,
// and each input (required ones marked, other spellings in parentheses).
func printTasks(w io.Writer) {
	for _, t := range github.Tasks() {
		fmt.Fprintf(w, "%s\n    %s\n    returns %s\n", t.Name, t.Description, t.Output)
		for _, in := range t.Inputs {
			req := ""
			if in.Required {
				req = ", required"
			}
			alias := ""
			if len(in.Aliases) > 0 {
				alias = " (also " + strings.Join(in.Aliases, ", ") + ")"
			}
			enum := ""
			if len(in.Enum) > 0 {
				enum = ": " + strings.Join(in.Enum, "|")
			}
			fmt.Fprintf(w, "    - %s%s %s%s%s\n", in.Name, alias, in.Type, req, enum)
		}
	}
}
