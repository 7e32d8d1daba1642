// Package environment holds where a job's runs happen: the environment
// types a scenario names in environment.type, registered as plugin values
// (Type), and the local one, which makes a fresh directory on this machine
// when the scenario needs one, writes its virtual_fs there and runs its code
// steps in it.
package environment

import (
	"context"

	"github.com/agenteval/agenteval/registry"
	"github.com/agenteval/agenteval/scenario"
)

// Type is a place runs happen, named by environment.type in files: a
// plugin value, registered in runner.Registries.Environments. `local` (a
// fresh directory on this machine) is built in; e2b is registered without
// a provider, as the format documents it: files may name it, and its jobs
// are recorded incomplete unless a host supplies one (Environments.Replace)
// or runner.Config.EnvFallback stands in.
type Type struct {
	// Name is the type as written in files.
	Name string
	// Doc says where runs happen.
	Doc string
	// Prepare makes a workspace for one run; nil means the type has no
	// provider here.
	Prepare func(ctx context.Context, req Request) (Workspace, error)
}

// Request is what a workspace is prepared for.
type Request struct {
	// JobID names the run.
	JobID string
	// Scenario is the scenario about to run (read-only).
	Scenario *scenario.Scenario
	// NeedDir says whether the scenario needs a directory at all
	// (virtual_fs, code steps, file or command checks); an environment may
	// make one anyway.
	NeedDir bool
	// BaseDir is where a local run directory goes (runner.Config.WorkDir;
	// "" for the OS temp dir), and Keep leaves it in place afterwards.
	BaseDir string
	Keep    bool
}

// Workspace is one run's place.
type Workspace interface {
	// Dir is the run's directory, or "".
	Dir() string
	// RunCode runs a code step's snippet in the workspace.
	RunCode(ctx context.Context, lang, code string) (CodeResult, error)
	// Close removes what Prepare made (unless kept).
	Close() error
}

// CodeResult is what a code step printed and how it exited.
type CodeResult struct {
	Stdout, Stderr string
	ExitCode       int
	// Notes say what the reader of the result should know: output cut to
	// its bound, processes the step left running and that were killed.
	Notes []string
}

// NewRegistry returns a registry holding the environment types of the
// agent scenario format: local, with its provider, and e2b, without one.
func NewRegistry() *registry.Registry[*Type] {
	r := registry.New("environment type", func(t *Type) string { return t.Name }, nil)
	err := r.Register(
		&Type{Name: "local", Doc: "a fresh directory on this machine, made only when the scenario needs one", Prepare: prepareLocal},
		&Type{Name: "e2b", Doc: "an E2B cloud sandbox; no provider here unless the host program registers one (or --env-fallback local)"},
	)
	if err != nil {
		panic(err) // the built-in names are distinct; a clash is a bug in this package
	}
	return r
}
