package plan

import (
	_ "embed" // the schema of Plan's JSON
	"slices"
)

//go:embed plan.schema.json
var schema []byte

// Schema returns the JSON Schema of a Plan as JSON (what `agenteval plan
// --format json` prints; `agenteval schema plan`), generated from the Go
// types and kept current by a test.
func Schema() []byte { return slices.Clone(schema) }
