package runner

import (
	"sync"

	"github.com/agenteval/agenteval/scenario"
)

// testLoader is one loader of the built-in registries, shared by the tests
// so that its schemas compile once.
var testLoader = sync.OnceValue(func() *scenario.Loader { return scenario.NewLoader(NewRegistries(), scenario.Options{}) })

// testLoad loads a document from bytes with testLoader.
func testLoad(name string, data []byte) (*scenario.File, error) { return testLoader().Load(name, data) }

// testLoadFile loads a file from disk with testLoader.
func testLoadFile(name string) (*scenario.File, error) { return testLoader().LoadFile(name) }
