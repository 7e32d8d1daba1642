package githubfake

// The pruned schema is generated from GitHub's published schema, a copy of
// which is kept in testdata/shared/github at the repository's root.
//go:generate go run ./internal/schemagen -schema ../../testdata/shared/github/schema.graphql -license ../../testdata/shared/github/LICENSE.md -fields internal/schemagen/served.txt -out schema.graphql
