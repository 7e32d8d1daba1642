package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/agenteval/agenteval/fixture"
	"github.com/agenteval/agenteval/github"
	"github.com/agenteval/agenteval/scenario"
)

// fixtureOps are the fixture subcommands, in help order.
var fixtureOps = []string{"seed", "status", "reset", "cleanup"}

// runFixture seeds, checks, resets or cleans up the GitHub fixtures of a
// manifest. Exit 0: no resource drifted, is missing or failed (a dry run's
// planned changes are fine); 1: one did, or the operation stopped; 2: usage.
func runFixture(ctx context.Context, env *cliEnv, args []string) int {
	flagsLine := "[--manifest M] [--seed-file S] [--repo owner/name] [--dry-run] [--graphql-url U] [--format text|json] [FIXTURE...]"
	if len(args) == 0 || !slices.Contains(fixtureOps, args[0]) {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
			fmt.Fprintf(env.stdout, "usage: agenteval fixture %s %s\n", strings.Join(fixtureOps, "|"), flagsLine)
			fmt.Fprintf(env.stdout, "Run 'agenteval fixture OPERATION -h' for an operation's flags.\n")
			return exitOK
		}
		fmt.Fprintf(env.stderr, "usage: agenteval fixture %s %s\n", strings.Join(fixtureOps, "|"), flagsLine)
		if len(args) > 0 {
			fmt.Fprintf(env.stderr, "agenteval fixture: unknown operation %q%s\n", args[0], didYouMean(args[0], fixtureOps))
		}
		return exitUsage
	}
	op := args[0]
	fl := newFlags(env, "fixture "+op, flagsLine)
	manifestPath := fl.String("manifest", "fixtures/latest.json", "fixture manifest to read (status, reset, cleanup) or write (seed)")
	seedPath := fl.String("seed-file", "", "seed file declaring the fixtures (seed; cleanup without a manifest)")
	repo := fl.String("repo", "", "repository owner/name, overriding the seed file's or manifest's")
	dryRun := fl.Bool("dry-run", false, "report what would change and change nothing")
	graphqlURL := fl.String("graphql-url", "", "GitHub GraphQL endpoint (default "+github.DefaultGraphQLURL+")")
	format := fl.String("format", "text", "output format: text or json")
	if code, ok := fl.parse(args[1:]); !ok {
		return code
	}
	env.redactor.AddURL(*graphqlURL)
	fail := func(format string, a ...any) int {
		fmt.Fprintf(env.stderr, "agenteval fixture %s: "+format+"\n", append([]any{op}, a...)...)
		return exitUsage
	}
	if !fl.oneOf("format", *format, "text", "json") {
		return exitUsage
	}
	if fl.NArg() > 0 && op != "reset" {
		return fail("fixture names are for reset only")
	}
	token := env.getenv("GITHUB_TOKEN")
	if token == "" {
		token = env.getenv("GH_TOKEN")
	}
	if token == "" {
		return fail("set GITHUB_TOKEN or GH_TOKEN to a token that can write the fixture repository")
	}
	mgr := github.NewManager(github.NewClient(github.Config{Token: token, GraphQLURL: *graphqlURL}), github.ManagerConfig{DryRun: *dryRun})

	var (
		rep *fixture.Report
		err error
	)
	switch op {
	case "seed":
		if *seedPath == "" {
			return fail("--seed-file is required")
		}
		sf, lerr := fixture.LoadSeedFile(*seedPath)
		if lerr != nil {
			return fail("%v", lerr)
		}
		if *repo != "" {
			sf.Repo = *repo
		}
		if sf.Repo == "" {
			return fail("no repository: set repo in the seed file or pass --repo")
		}
		var man *scenario.Manifest
		man, rep, err = mgr.Seed(ctx, sf)
		if man != nil && !*dryRun && len(man.Fixtures) > 0 {
			if werr := fixture.WriteManifest(*manifestPath, man); werr != nil {
				err = errors.Join(err, werr)
			} else {
				fmt.Fprintf(env.stderr, "wrote %s (%d fixtures)\n", *manifestPath, len(man.Fixtures))
			}
		}
	default:
		man, lerr := fixtureManifest(*manifestPath, *seedPath, op)
		if lerr != nil {
			return fail("%v", lerr)
		}
		if *repo != "" {
			man.Repo = *repo
		}
		switch op {
		case "status":
			rep, err = mgr.Status(ctx, man)
		case "reset":
			rep, err = mgr.Reset(ctx, man, fl.Args()...)
		case "cleanup":
			rep, err = mgr.Cleanup(ctx, man)
		}
	}
	printFixtureReport(env, rep, *format)
	if err != nil {
		fmt.Fprintf(env.stderr, "agenteval fixture %s: %v\n", op, err) // stderr masks the token
		return exitFail
	}
	for _, r := range rep.Resources {
		switch r.Outcome {
		case fixture.Drifted, fixture.Missing, fixture.Failed:
			return exitFail
		}
	}
	return exitOK
}

// fixtureManifest loads the manifest; cleanup without one falls back to the
// seed file's seed id and repository, which is enough to find what carries
// the seed label.
func fixtureManifest(path, seedPath, op string) (*scenario.Manifest, error) {
	man, err := fixture.LoadManifest(path)
	if err == nil || op != "cleanup" || seedPath == "" || !errors.Is(err, fs.ErrNotExist) {
		return man, err
	}
	sf, serr := fixture.LoadSeedFile(seedPath)
	if serr != nil {
		return nil, serr
	}
	return &scenario.Manifest{SeedID: sf.SeedID, Repo: sf.Repo, Fixtures: map[string]scenario.FixtureResource{}}, nil
}

func printFixtureReport(env *cliEnv, rep *fixture.Report, format string) {
	if rep == nil {
		return
	}
	if format == "json" {
		enc := json.NewEncoder(env.stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(rep)
		return
	}
	fmt.Fprint(env.stdout, rep.String())
	counts := map[fixture.Outcome]int{}
	for _, r := range rep.Resources {
		counts[r.Outcome]++
	}
	var parts []string
	for _, o := range []fixture.Outcome{fixture.OK, fixture.Changed, fixture.Planned, fixture.Drifted, fixture.Missing, fixture.Skipped, fixture.Failed} {
		if counts[o] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[o], o))
		}
	}
	dry := ""
	if rep.DryRun {
		dry = " (dry run: nothing changed)"
	}
	fmt.Fprintf(env.stderr, "%s: %d resource(s): %s%s\n", rep.Op, len(rep.Resources), strings.Join(parts, ", "), dry)
}
