package scenario

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/invopop/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// update rewrites golden files (schemas, diagnostics) instead of comparing.
var update = flag.Bool("update", false, "rewrite golden files and generated schemas")

// extractComments returns the doc comments of the types the schemas are
// made of (and of their exported fields), keyed as invopop's CommentMap
// expects.
func extractComments(t testing.TB) map[string]string {
	t.Helper()
	r := &jsonschema.Reflector{}
	require.NoError(t, r.AddGoComments(pkgPath, "."))
	types := schemaTypes()
	out := map[string]string{}
	for k, v := range r.CommentMap {
		rest, ok := strings.CutPrefix(k, pkgPath+".")
		if !ok || v == "" {
			continue
		}
		typ, _, _ := strings.Cut(rest, ".")
		if types[typ] {
			out[k] = v
		}
	}
	return out
}

// schemaTypes returns the names of this package's types that the schemas
// describe: those reachable from each kind's root type and from the
// built-in evaluation types' parameters.
func schemaTypes() map[string]bool {
	seen := map[string]bool{}
	var visit func(rt reflect.Type)
	visit = func(rt reflect.Type) {
		for rt.Kind() == reflect.Pointer || rt.Kind() == reflect.Slice || rt.Kind() == reflect.Map || rt.Kind() == reflect.Array {
			rt = rt.Elem()
		}
		if rt.PkgPath() != pkgPath || seen[rt.Name()] {
			return
		}
		seen[rt.Name()] = true
		if rt.Kind() == reflect.Struct {
			for f := range rt.Fields() {
				visit(f.Type)
			}
		}
	}
	for _, root := range []any{Scenario{}, GitHubScenario{}, Matrix{}, Manifest{}, ScenarioSets{}} {
		visit(reflect.TypeOf(root))
	}
	for _, et := range BuiltinEvaluationTypes() {
		visit(reflect.TypeOf(et.NewParams()))
	}
	return seen
}

func marshalComments(t testing.TB, m map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	require.NoError(t, enc.Encode(m)) // map keys are sorted
	return buf.Bytes()
}

// TestSchemaFilesUpToDate regenerates schemas/comments.json and every
// schemas/<kind>.schema.json from the Go source and compares them with the
// committed (and embedded) files. Run `go generate ./scenario` (or this test
// with -update) after changing a type, a tag or a doc comment.
func TestSchemaFilesUpToDate(t *testing.T) {
	comments := extractComments(t)
	require.NotEmpty(t, comments)
	want := map[string][]byte{"comments.json": marshalComments(t, comments)}
	for _, k := range SchemaKinds() {
		b, err := generateSchema(k, DefaultRegistry(), comments)
		require.NoError(t, err, k)
		want[k.String()+".schema.json"] = b
	}
	for name, b := range want {
		file := filepath.Join("schemas", name)
		if *update {
			require.NoError(t, os.WriteFile(file, b, 0o644))
			continue
		}
		got, err := os.ReadFile(file)
		require.NoError(t, err, "run: go generate ./scenario")
		if !bytes.Equal(b, got) {
			t.Errorf("%s is out of date (first difference: %s); run: go generate ./scenario", file, firstDiff(string(b), string(got)))
		}
	}
}

// firstDiff shows the first line where want and got differ.
func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range min(len(w), len(g)) {
		if w[i] != g[i] {
			return fmt.Sprintf("line %d: want %q, have %q", i+1, w[i], g[i])
		}
	}
	return fmt.Sprintf("want %d lines, have %d", len(w), len(g))
}

// TestEmbeddedSchemasMatchGeneration checks that what a consumer's binary
// serves (the embedded files) is what the embedded comment map generates.
func TestEmbeddedSchemasMatchGeneration(t *testing.T) {
	t.Parallel()
	for _, k := range SchemaKinds() {
		embedded, err := GenerateSchema(k, nil)
		require.NoError(t, err)
		generated, err := generateSchema(k, DefaultRegistry(), nil)
		require.NoError(t, err)
		assert.JSONEq(t, string(generated), string(embedded), k.String())
	}
}

func TestSchemaDescriptions(t *testing.T) {
	t.Parallel()
	b, err := GenerateSchema(KindScenario, nil)
	require.NoError(t, err)
	var s struct {
		Description string `json:"description"`
		Properties  map[string]struct {
			Description string `json:"description"`
		} `json:"properties"`
		Defs map[string]struct {
			Description string `json:"description"`
			Properties  map[string]struct {
				Description string `json:"description"`
			} `json:"properties"`
		} `json:"$defs"`
	}
	require.NoError(t, json.Unmarshal(b, &s))
	assert.Contains(t, s.Description, "runtime model")
	assert.Equal(t, "Run is the ordered list of steps.", s.Properties["run"].Description)
	assert.Equal(t, "MaxTurns bounds the number of agent turns.", s.Defs["Conversation"].Properties["max_turns"].Description)
	assert.Equal(t, "Pattern is the regular expression.", s.Defs["Evaluation_regex_match"].Properties["pattern"].Description)
	for name, d := range s.Defs {
		for prop, p := range d.Properties {
			assert.NotEmpty(t, p.Description, "$defs.%s.properties.%s has no description", name, prop)
		}
	}
}
