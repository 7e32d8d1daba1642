package scenario

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/invopop/jsonschema"
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
	// AddGoComments names a package base + its directory as walked, so
	// this package's path plus ../internal/evalparams is paramsPath.
	require.NoError(t, r.AddGoComments(pkgPath, "../internal/evalparams"))
	addUnexportedComments(t, r.CommentMap)
	types := schemaTypes()
	out := map[string]string{}
	for k, v := range r.CommentMap {
		for _, pkg := range []string{pkgPath, paramsPath} {
			rest, ok := strings.CutPrefix(k, pkg+".")
			if !ok || v == "" {
				continue
			}
			typ, _, _ := strings.Cut(rest, ".")
			if types[pkg+"."+typ] {
				out[k] = v
			}
		}
	}
	return out
}

// addUnexportedComments adds what AddGoComments leaves out: the doc
// comments of this package's unexported types (the raw shapes ghx's files
// decode into) and of their exported fields, keyed as the reflector looks
// them up and made as AddGoComments makes them (a type's synopsis, a
// field's whole comment). A type's comment begins with its Go name; the
// description names it as the schema does (see schemaName).
func addUnexportedComments(t testing.TB, m map[string]string) {
	t.Helper()
	names, err := filepath.Glob("*.go")
	require.NoError(t, err)
	fset := token.NewFileSet()
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		require.NoError(t, err)
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, spec := range gd.Specs {
				ts := spec.(*ast.TypeSpec)
				typ := ts.Name.Name
				if ast.IsExported(typ) {
					continue
				}
				txt := ts.Doc.Text()
				if txt == "" && len(gd.Specs) == 1 {
					txt = gd.Doc.Text() // type X struct: the comment is the declaration's
				}
				if txt != "" {
					if rest, ok := strings.CutPrefix(txt, typ); ok {
						txt = schemaName(typ) + rest
					}
					m[pkgPath+"."+typ] = strings.TrimSpace(new(doc.Package).Synopsis(txt))
				}
				st, ok := ts.Type.(*ast.StructType)
				if !ok {
					continue
				}
				for _, field := range st.Fields.List {
					txt := field.Doc.Text()
					if txt == "" {
						txt = field.Comment.Text()
					}
					for _, n := range field.Names {
						if txt != "" && n.IsExported() {
							m[pkgPath+"."+typ+"."+n.Name] = strings.TrimSpace(txt)
						}
					}
				}
			}
		}
	}
}

// schemaTypes returns the names (package path.name) of this package's and
// the built-in parameters' types that the schemas describe: those reachable
// from each kind's root type and from the built-in evaluation types'
// parameters.
func schemaTypes() map[string]bool {
	seen := map[string]bool{}
	var visit func(rt reflect.Type)
	visit = func(rt reflect.Type) {
		for rt.Kind() == reflect.Pointer || rt.Kind() == reflect.Slice || rt.Kind() == reflect.Map || rt.Kind() == reflect.Array {
			rt = rt.Elem()
		}
		name := rt.PkgPath() + "." + rt.Name()
		if rt.PkgPath() != pkgPath && rt.PkgPath() != paramsPath || seen[name] {
			return
		}
		seen[name] = true
		if rt.Kind() == reflect.Struct {
			for f := range rt.Fields() {
				visit(f.Type)
			}
		}
	}
	for _, root := range []any{Scenario{}, gitHubScenario{}, Matrix{}, Manifest{}, Suite{}, evalConfig{}} {
		visit(reflect.TypeOf(root))
	}
	for _, et := range (testRegistries{}).Vocabulary().Evaluations {
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
