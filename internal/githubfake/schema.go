package githubfake

import (
	_ "embed"
	"fmt"
	"sync"

	"github.com/agenteval/agenteval/internal/githubfake/internal/schemaprune"
	"github.com/vektah/gqlparser/v2/ast"
)

// prunedSchema is GitHub's public schema reduced to what the fake serves. It
// carries GitHub's MIT notice as a header comment.
//
//go:embed schema.graphql
var prunedSchema string

// servedSchema parses the embedded schema once per process: it is immutable,
// and parsing it for every Server would make each test pay for it again.
var servedSchema = sync.OnceValues(func() (*ast.Schema, error) {
	s, err := schemaprune.Load(prunedSchema)
	if err != nil {
		return nil, fmt.Errorf("githubtest: embedded schema: %w", err)
	}
	return s, nil
})

// Schema returns the GraphQL schema the fake validates queries against:
// GitHub's published schema pruned to the types and fields the fake serves.
// Callers must not modify it.
func Schema() *ast.Schema {
	s, err := servedSchema()
	if err != nil {
		// The embedded file is generated and tested; failing to parse it is
		// a build defect, not a runtime condition.
		panic(err)
	}
	return s
}

// LoadSchema parses and validates a GitHub GraphQL schema in SDL form, such
// as the full published schema.graphql. GitHub's published schema defines a
// few fields twice in one type, which gqlparser would reject; LoadSchema keeps
// the first definition of each, so the result can validate queries exactly as
// GitHub does.
func LoadSchema(sdl string) (*ast.Schema, error) {
	return schemaprune.Load(sdl)
}
