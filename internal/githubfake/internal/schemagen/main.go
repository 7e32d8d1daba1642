// Command schemagen prunes GitHub's published GraphQL schema to the part that
// githubtest serves, so the fake can embed a small schema instead of the
// 1.2 MB original while still rejecting every query GitHub would reject.
//
// Usage (normally through `go generate` in github/githubtest):
//
//	go run ./internal/schemagen -schema FULL.graphql -fields served.txt -license LICENSE.md -out schema.graphql
//
// It keeps, for every object and interface type, only the fields listed in
// served.txt (objects also keep the fields of the kept interfaces they
// implement), every argument of a kept field, every input, enum and scalar
// type those arguments and fields need (in full), and union members and
// interface implementations that are themselves kept. Descriptions and
// directives are dropped to keep the file small.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"

	"github.com/agenteval/agenteval/internal/githubfake/internal/schemaprune"
)

func main() {
	schemaPath := flag.String("schema", "", "path of GitHub's full schema.graphql")
	fieldsPath := flag.String("fields", "", "path of the served fields list")
	licensePath := flag.String("license", "", "path of the schema's LICENSE.md (copied as a header)")
	outPath := flag.String("out", "", "path to write the pruned schema to")
	flag.Parse()
	if err := run(*schemaPath, *fieldsPath, *licensePath, *outPath); err != nil {
		fmt.Fprintln(os.Stderr, "schemagen:", err)
		os.Exit(1)
	}
}

func run(schemaPath, fieldsPath, licensePath, outPath string) error {
	if schemaPath == "" || fieldsPath == "" || outPath == "" {
		return fmt.Errorf("-schema, -fields and -out are required")
	}
	full, err := os.ReadFile(schemaPath)
	if err != nil {
		return err
	}
	fieldsFile, err := os.Open(fieldsPath)
	if err != nil {
		return err
	}
	defer fieldsFile.Close()
	fields, err := schemaprune.ReadFields(fieldsFile)
	if err != nil {
		return err
	}
	var license []byte
	if licensePath != "" {
		if license, err = os.ReadFile(licensePath); err != nil {
			return err
		}
	}
	var out bytes.Buffer
	if err := schemaprune.Prune(&out, string(full), fields, string(license)); err != nil {
		return err
	}
	return os.WriteFile(outPath, out.Bytes(), 0o644)
}
