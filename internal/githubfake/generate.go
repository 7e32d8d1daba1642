package githubfake

// The pruned schema is generated from GitHub's published schema, which lives
// outside the module (../../../shared/github relative to this directory).
//go:generate go run ./internal/schemagen -schema ../../../shared/github/schema.graphql -license ../../../shared/github/LICENSE.md -fields internal/schemagen/served.txt -out schema.graphql
