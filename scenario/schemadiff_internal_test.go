package scenario

import (
	"encoding/json"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/agenteval/agenteval/internal/schemacheck"
	"github.com/rogpeppe/go-internal/txtar"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The differential tests hold the loader's own validator
// (internal/schemacheck) to the diagnostics santhosh-tekuri/jsonschema gave
// before it replaced it, on every document the repository holds.

// diffDocument is one document to validate.
type diffDocument struct {
	name string
	data []byte
}

// diffDocuments are the YAML and JSON files under the repository's
// testdata and examples (the upstream corpus too), the files inside the
// txtar archives of the golden and CLI script tests, and the peer files.
func diffDocuments(t testing.TB) []diffDocument {
	var docs []diffDocument
	isDoc := func(name string) bool {
		switch path.Ext(name) {
		case ".yaml", ".yml", ".json":
			return !strings.HasSuffix(name, "EXPECT.json")
		}
		return false
	}
	walk := func(root string) {
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return nil
			}
			switch {
			case strings.HasSuffix(p, ".txtar"):
				for _, f := range txtar.Parse(b).Files {
					if isDoc(f.Name) {
						docs = append(docs, diffDocument{p + "/" + f.Name, f.Data})
					}
				}
			case isDoc(p) && len(b) < 1<<20:
				docs = append(docs, diffDocument{p, b})
			}
			return nil
		})
	}
	for _, root := range []string{"../testdata", "../examples", "testdata", "schemas", "../cmd/agenteval/testdata", "../matrix/testdata", "../runner/testdata", "../fixture/testdata", "../report/testdata"} {
		walk(root)
	}
	require.NotEmpty(t, docs)
	return docs
}

// committedSchemas are scenario/schemas/*.schema.json, each compiled by
// both validators.
type committedSchema struct {
	name   string
	doc    map[string]any
	ours   *schemacheck.Schema
	theirs *jsonschema.Schema
}

func committedSchemas(t testing.TB) []committedSchema {
	names, err := fs.Glob(schemaFiles, "schemas/*.schema.json")
	require.NoError(t, err)
	require.NotEmpty(t, names)
	var out []committedSchema
	for _, name := range names {
		raw, err := schemaFiles.ReadFile(name)
		require.NoError(t, err)
		c, doc, err := schemacheck.CompileJSON(raw)
		require.NoError(t, err, name)
		out = append(out, committedSchema{name: name, doc: doc, ours: c.Root(), theirs: santhoshCompile(t, raw, "")})
	}
	return out
}

// santhoshCompile compiles a schema document (JSON), or one of its parts,
// with santhosh-tekuri/jsonschema as the loader once did.
func santhoshCompile(t testing.TB, raw []byte, fragment string) *jsonschema.Schema {
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(string(raw)))
	require.NoError(t, err)
	c := jsonschema.NewCompiler()
	const url = "https://example.test/s.schema.json"
	require.NoError(t, c.AddResource(url, doc))
	s, err := c.Compile(url + fragment)
	require.NoError(t, err)
	return s
}

var theirCache sync.Map // *compiledSchema → map[*schemacheck.Schema]*jsonschema.Schema

// theirsFor compiles the loader's schemas of one kind with
// santhosh-tekuri/jsonschema: the whole document's and each evaluation
// type's, by the schemacheck schema they stand for.
func theirsFor(t testing.TB, cs *compiledSchema) map[*schemacheck.Schema]*jsonschema.Schema {
	if v, ok := theirCache.Load(cs); ok {
		return v.(map[*schemacheck.Schema]*jsonschema.Schema)
	}
	raw, err := json.Marshal(cs.doc)
	require.NoError(t, err)
	th := map[*schemacheck.Schema]*jsonschema.Schema{cs.schema: santhoshCompile(t, raw, "")}
	for name, sch := range cs.evals {
		th[sch] = santhoshCompile(t, raw, "#/$defs/Evaluation_"+jsonPointerEscape(name))
	}
	theirCache.Store(cs, th)
	return th
}

// partsDiagnostics validates a document's parts as the loader does
// (compiledSchema.eachPart), with both validators.
func partsDiagnostics(t testing.TB, doc *Document, kind Kind, cs *compiledSchema) (ours, theirs Diagnostics) {
	th := theirsFor(t, cs)
	cs.eachPart(kind, doc.Value, func(sch *schemacheck.Schema, loc []string, v any) {
		if err := sch.Validate(v); err != nil {
			ours = append(ours, schemaDiagnostics(doc, cs.doc, slices.Clone(loc), oursWithoutPropertyNames(err.(*schemacheck.Error)))...)
		}
		if err := th[sch].Validate(v); err != nil {
			theirs = append(theirs, santhoshDiagnostics(doc, cs.doc, slices.Clone(loc), withoutPropertyNames(err))...)
		}
	})
	return ours.Sort(), theirs.Sort()
}

// withoutPropertyNames drops propertyNames failures from santhosh's tree:
// it locates their causes relative to the property name and keeps the
// object's location in a slice it goes on appending to, so the place it
// reports is another field's. Ours are left out alike
// (oursWithoutPropertyNames); internal/schemacheck's tests compare
// propertyNames where santhosh places it right.
func withoutPropertyNames(err error) *jsonschema.ValidationError {
	ve := err.(*jsonschema.ValidationError)
	ve.Causes = slices.DeleteFunc(ve.Causes, func(c *jsonschema.ValidationError) bool {
		_, ok := c.ErrorKind.(*kind.PropertyNames)
		return ok
	})
	for _, c := range ve.Causes {
		withoutPropertyNames(c)
	}
	return ve
}

func oursWithoutPropertyNames(e *schemacheck.Error) *schemacheck.Error {
	e.Causes = slices.DeleteFunc(e.Causes, func(c *schemacheck.Error) bool {
		_, ok := c.Kind.(*schemacheck.PropertyNames)
		return ok
	})
	for _, c := range e.Causes {
		oursWithoutPropertyNames(c)
	}
	return e
}

// compareSchemaDiagnostics parses one document and requires both
// validators to make the same diagnostics of it: as the loader validates
// it (its kind's schema, then each evaluation against its type's), and
// against each committed schema as a whole. It returns how many
// diagnostics it compared.
func compareSchemaDiagnostics(t *testing.T, l *Loader, schemas []committedSchema, name string, data []byte) (n int) {
	t.Helper()
	doc, _ := ParseDocument(name, data, Limits{MaxNodes: 100_000})
	if doc == nil {
		return 0
	}
	kind := detectKind(name, doc.Value)
	if kind != KindUnknown {
		cs := l.current().schema(kind)
		require.NoError(t, cs.err)
		ours, theirs := partsDiagnostics(t, doc, kind, cs)
		assert.Equal(t, theirs, ours, "%s as %s", name, kind)
		n += len(theirs)
	}
	for _, s := range schemas {
		var ours, theirs Diagnostics
		if err := s.ours.Validate(doc.Value); err != nil {
			ours = schemaDiagnostics(doc, s.doc, nil, oursWithoutPropertyNames(err.(*schemacheck.Error)))
		}
		if err := s.theirs.Validate(doc.Value); err != nil {
			theirs = santhoshDiagnostics(doc, s.doc, nil, withoutPropertyNames(err))
		}
		assert.Equal(t, theirs.Sort(), ours.Sort(), "%s against %s", name, s.name)
		n += len(theirs)
	}
	return n
}

func TestSchemaDiagnosticsMatchSanthosh(t *testing.T) {
	t.Parallel()
	l := NewLoader(hostRegistries{}, Options{})
	schemas := committedSchemas(t)
	docs := diffDocuments(t)
	n := 0
	for _, d := range docs {
		n += compareSchemaDiagnostics(t, l, schemas, d.name, d.data)
	}
	// Most documents fail most schemas not their own: the error trees
	// are compared, not only the verdicts.
	assert.Greater(t, n, 1000)
	t.Logf("%d documents, %d schemas, %d diagnostics compared", len(docs), len(schemas), n)
}

// FuzzSchemaDiagnostics mutates the repository's documents and requires
// the same diagnostics from both validators.
func FuzzSchemaDiagnostics(f *testing.F) {
	names := []string{"a.scenario.yaml", "pr-fix-001.json", "a.matrix.yaml", "manifest.json", "scenario-sets.json", "a.suite.yaml", "eval.config.yaml"}
	for i, d := range diffDocuments(f) {
		f.Add(uint8(i), d.data)
	}
	for _, eval := range hostDocuments {
		f.Add(uint8(0), []byte(hostScenario(eval)))
	}
	l := NewLoader(hostRegistries{}, Options{})
	schemas := committedSchemas(f)
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		if len(data) > 64<<10 {
			return
		}
		compareSchemaDiagnostics(t, l, schemas, names[int(which)%len(names)], data)
	})
}
