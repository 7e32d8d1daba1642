package scenario_test

import (
	"sync"

	"github.com/agenteval/agenteval"
	"github.com/agenteval/agenteval/runner"
	"github.com/agenteval/agenteval/scenario"
)

// builtins are the registries agenteval.New holds: every built-in.
var builtins = sync.OnceValue(func() *runner.Registries { return agenteval.New().Registries })

// newLoader returns a loader of the built-ins with opts.
func newLoader(opts scenario.Options) *scenario.Loader { return scenario.NewLoader(builtins(), opts) }

// defaultLoader is one loader of the built-ins with default options, shared
// so that its schemas compile once.
var defaultLoader = sync.OnceValue(func() *scenario.Loader { return newLoader(scenario.Options{}) })

// load loads a document from bytes with the default loader.
func load(name string, data []byte) (*scenario.File, error) { return defaultLoader().Load(name, data) }

// loadFile loads a file from disk with the default loader.
func loadFile(name string) (*scenario.File, error) { return defaultLoader().LoadFile(name) }
