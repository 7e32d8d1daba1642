package scenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/agenteval/agenteval/internal/infile"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Options configure a Loader. The zero value reports unknown fields as
// warnings and caps files at 8 MiB, matrix files at 64 MiB.
type Options struct {
	// Strict turns unknown fields (and other warnings about extra keys) into errors.
	Strict bool
	// Limits bound file size and alias expansion.
	Limits Limits
	// Kind forces the document kind instead of detecting it from name and content.
	Kind Kind
	// ScorersElsewhere says that custom checkpoint scorers are registered by
	// another program than the one loading: a custom condition's scorer
	// then draws a warning when the registries do not hold it, instead of
	// an error.
	ScorersElsewhere bool
}

// File is one loaded document. Which fields are set depends on Kind. A File
// is returned together with its diagnostics even when they hold errors, as
// far as the content could be decoded.
type File struct {
	// Name is the file's name as given to the loader.
	Name string
	// ID is the file's identity in a run, the first part of its jobs' ids:
	// a scenario's id, or a matrix file's name without .matrix.yaml. An id
	// that the file does not write (every matrix's, an agent scenario's
	// without id) is derived from its path; [Loader.LoadPaths] makes derived ids
	// unique across the files it loads.
	ID string
	// Kind is the document kind.
	Kind Kind
	// Doc is the parsed document, for positions.
	Doc *Document
	// Scenario is the runtime model, for KindScenario and KindGitHub.
	Scenario *Scenario
	// Matrix is the matrix, for KindMatrix.
	Matrix *Matrix
	// Base is the matrix's base scenario, loaded relative to the matrix file.
	Base *File
	// Manifest is the fixture manifest, for KindManifest.
	Manifest *Manifest
	// Sets are the scenario sets, for KindScenarioSets
	// (scenario-sets.json, beside the scenarios): set name to the ids of
	// the GitHub scenarios in it.
	Sets map[string][]string
	// Suite is the suite, for KindSuite, and for KindEvalConfig the suite
	// ghx's configuration describes: its agents are the modes, without a
	// spec until [Loader.LoadSuite] gives them theirs.
	Suite *Suite
	// gitHub is the GitHub scenario as written, for KindGitHub, and
	// evalConfig ghx's configuration, for KindEvalConfig.
	gitHub     *gitHubScenario
	evalConfig *evalConfig
	// Diagnostics are the errors and warnings found, sorted by position.
	Diagnostics Diagnostics
	// loader loaded the file, with the registries' vocabulary of gen.
	loader *Loader
	gen    *generation
}

// Loader loads and validates documents. It compiles each kind's schema
// once for what its registries hold (again after a registration) and is
// safe for concurrent use.
type Loader struct {
	opts Options
	reg  Registries
	mu   sync.Mutex
	// gen is what the loader knows for the registries' current version.
	gen *generation
}

// generation is a loader's vocabulary and compiled schemas for one version
// of its registries.
type generation struct {
	version uint64
	vocab   *vocab
	// mu guards the map only: each kind compiles outside it, so a kind
	// that is ready (a matrix's) is not held up by one still compiling
	// (its base scenario's, several times larger).
	mu       sync.Mutex
	compiled map[Kind]*compiledSchema
}

type compiledSchema struct {
	ready  chan struct{} // closed once the fields below are set
	schema *jsonschema.Schema
	doc    map[string]any
	err    error
	// evalSites are where evaluations occur.
	evalSites [][]string
	// parts are the schemas of parts of a document checked on their own
	// (an evaluation type's, or one evaluation or condition for the Decode
	// methods), compiled by compiler at url when first asked: a run
	// compiles only the evaluation types its files use, where compiling
	// every registered type had been two thirds of a run's start-up. mu
	// guards compiler (not safe for concurrent use) and parts.
	mu       sync.Mutex
	compiler *jsonschema.Compiler
	url      string
	parts    map[string]*jsonschema.Schema
}

// part returns the schema at $defs/name of cs's document, compiled on
// first use; nil, nil when the document has no such definition (an
// evaluation type the registries do not hold).
func (cs *compiledSchema) part(name string) (*jsonschema.Schema, error) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if sch, ok := cs.parts[name]; ok {
		return sch, nil
	}
	defs, _ := cs.doc["$defs"].(map[string]any)
	if _, ok := defs[name]; !ok || cs.compiler == nil {
		return nil, nil
	}
	sch, err := cs.compiler.Compile(cs.url + "#/$defs/" + jsonPointerEscape(name))
	if err != nil {
		return nil, err
	}
	if cs.parts == nil {
		cs.parts = map[string]*jsonschema.Schema{}
	}
	cs.parts[name] = sch
	return sch, nil
}

// evalSchema is the schema of evaluation type typ (nil for a type the
// registries do not hold: the kind's schema reports it).
func (cs *compiledSchema) evalSchema(typ string) (*jsonschema.Schema, error) {
	if typ == "" {
		return nil, nil
	}
	return cs.part("Evaluation_" + typ)
}

// NewLoader returns a loader that accepts what reg holds (agenteval.Kit's
// Loader method passes the kit): evaluation types, strategies, condition
// types and scorers, termination and environment types. A nil reg holds
// nothing, so every such name is refused.
func NewLoader(reg Registries, opts Options) *Loader {
	return &Loader{opts: opts, reg: reg}
}

// current returns the generation for the registries' version now,
// starting a new one when they changed.
func (l *Loader) current() *generation {
	var v uint64
	if l.reg != nil {
		v = l.reg.Version()
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.gen == nil || l.gen.version != v {
		var voc *Vocabulary
		if l.reg != nil {
			voc = l.reg.Vocabulary()
		}
		l.gen = &generation{version: v, vocab: newVocab(voc), compiled: map[Kind]*compiledSchema{}}
	}
	return l.gen
}

// Loader returns the loader that loaded f (nil for a File made by hand):
// a matrix checks the variants of its base scenario with it, so they
// accept what the base did.
func (f *File) Loader() *Loader { return f.loader }

// Load loads a document from bytes. name decides the kind
// (*.scenario.yaml, *.matrix.yaml, scenario-sets.json) and is used in
// diagnostics. A matrix's base scenario is looked up on the OS file system
// relative to name. The error, when not nil, is the file's Diagnostics.
func (l *Loader) Load(name string, data []byte) (*File, error) {
	return l.load(osFS{}, name, data, true)
}

// LoadFile loads one file from disk.
func (l *Loader) LoadFile(name string) (*File, error) {
	return l.LoadFS(osFS{}, name)
}

// LoadFS loads one file from fsys.
func (l *Loader) LoadFS(fsys fs.FS, name string) (*File, error) {
	return l.loadFS(fsys, name, true)
}

// loadFS reads and loads a file; withBase says whether a matrix's base
// scenario is loaded too (not when loading a base, so that a matrix naming
// itself, or two naming each other, cannot recurse).
func (l *Loader) loadFS(fsys fs.FS, name string, withBase bool) (*File, error) {
	max := l.opts.Limits.forKind(name, l.opts.Kind).MaxBytes
	if st, err := fs.Stat(fsys, name); err == nil && st.Size() > int64(max) {
		// The same finding ParseDocument makes, without reading the file.
		f := &File{Name: name, Diagnostics: Diagnostics{sizeDiagnostic(name, st.Size(), max)}}
		return f, f.Diagnostics
	}
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		f := &File{Name: name, Diagnostics: Diagnostics{{File: name, Severity: Error, Code: "read", Message: err.Error()}}}
		return f, f.Diagnostics
	}
	return l.load(fsys, name, data, withBase)
}

func (l *Loader) load(fsys fs.FS, name string, data []byte, withBase bool) (*File, error) {
	f := &File{Name: name, loader: l, gen: l.current()}
	f.gen.precompile(l.opts.Kind, name)
	doc, diags := ParseDocument(name, data, l.opts.Limits.forKind(name, l.opts.Kind))
	f.Diagnostics = diags
	if doc != nil {
		f.Doc = doc
		kind := l.opts.Kind
		if kind == KindUnknown {
			kind = detectKind(name, doc.Value)
		}
		f.Kind = kind
		l.decode(f)
		if f.Kind == KindMatrix && f.Matrix != nil && withBase {
			l.loadBase(fsys, f)
		}
		if f.Kind == KindScenarioSets && f.Sets != nil {
			l.checkSets(fsys, f)
		}
		f.ID = fileID(f)
	}
	f.Diagnostics = l.finish(f.Diagnostics)
	return f, f.Diagnostics.err()
}

// finish applies strictness and sorts.
func (l *Loader) finish(ds Diagnostics) Diagnostics {
	if l.opts.Strict {
		for i := range ds {
			if ds[i].Code == "unknown-field" {
				ds[i].Severity = Error
			}
		}
	}
	return ds.Sort()
}

// LoadValue validates and decodes a document given as plain data (as a
// matrix override produces), without positions. Diagnostics carry paths;
// Line and Column are 0.
func (l *Loader) LoadValue(kind Kind, name string, value any) (*File, error) {
	f := &File{Name: name, Kind: kind, Doc: &Document{File: name}, loader: l, gen: l.current()}
	plain, err := plainValue(value)
	if err != nil {
		f.Diagnostics = Diagnostics{{File: name, Severity: Error, Code: "type", Message: fmt.Sprintf("value cannot be written as JSON: %v", err)}}
		return f, f.Diagnostics
	}
	f.Doc.Value = plain
	l.decode(f)
	f.Diagnostics = l.finish(f.Diagnostics)
	return f, f.Diagnostics.err()
}

// plainValue returns v in the form a Document holds (map[string]any, []any,
// string, json.Number, bool, nil). Values built in Go (ints, []string,
// structs) are converted through their JSON form, as encoding/json sees them.
func plainValue(v any) (any, error) {
	if isPlain(v) {
		return v, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var out any
	err = d.Decode(&out)
	return out, err
}

func isPlain(v any) bool {
	switch x := v.(type) {
	case nil, string, json.Number, bool:
		return true
	case map[string]any:
		for _, e := range x {
			if !isPlain(e) {
				return false
			}
		}
		return true
	case []any:
		for _, e := range x {
			if !isPlain(e) {
				return false
			}
		}
		return true
	}
	return false
}

func (l *Loader) decode(f *File) {
	if f.Kind == KindUnknown {
		f.Diagnostics = append(f.Diagnostics, Diagnostic{File: f.Name, Line: 1, Column: 1, Severity: Error, Code: "kind",
			Message: "cannot tell what kind of document this is; name it *.scenario.yaml or *.matrix.yaml, or give it the fields of a GitHub eval scenario (id, prompt, assertions) or a fixture manifest (seedId, fixtures); name a suite *.suite.yaml"})
		return
	}
	schemaOK := l.validateSchema(f)
	var target any
	switch f.Kind {
	case KindScenario:
		f.Scenario = new(Scenario)
		target = f.Scenario
	case KindGitHub:
		f.gitHub = new(gitHubScenario)
		target = f.gitHub
	case KindMatrix:
		f.Matrix = new(Matrix)
		target = f.Matrix
	case KindManifest:
		f.Manifest = new(Manifest)
		target = f.Manifest
	case KindScenarioSets:
		target = &f.Sets
	case KindSuite:
		f.Suite = new(Suite)
		target = f.Suite
	case KindEvalConfig:
		f.evalConfig = new(evalConfig)
		target = f.evalConfig
	}
	if err := decodeValue(f.Doc.Value, target); err != nil {
		if de, ok := err.(*decodeError); ok && schemaOK {
			f.addf(de.path, Error, "type", "%s", de.msg)
		} else if schemaOK {
			f.addf(nil, Error, "type", "%v", err)
		}
		f.Scenario, f.gitHub, f.Matrix, f.Manifest, f.Sets, f.Suite, f.evalConfig = nil, nil, nil, nil, nil, nil, nil
		return
	}
	switch f.Kind {
	case KindScenario:
		l.decodeEvaluations(f, f.Scenario, nil)
		f.Scenario.SetDefaults(f.Name)
		l.checkScenario(f, f.Scenario, false)
	case KindGitHub:
		base := Path{}.Key("evaluations")
		for i := range f.gitHub.Evaluations {
			l.decodeEvaluation(f, &f.gitHub.Evaluations[i], base.Index(i))
		}
		f.Scenario = f.gitHub.scenario()
		f.Scenario.SetDefaults(f.Name)
		l.checkScenario(f, f.Scenario, true)
	case KindMatrix:
		if f.Matrix.RunsPerCombination == 0 {
			f.Matrix.RunsPerCombination = 1
		}
		checkMatrix(f)
	case KindManifest:
		checkManifest(f)
	case KindSuite:
		f.Suite.setDefaults()
		checkSuite(f, f.Suite)
	case KindEvalConfig:
		f.evalConfig.setDefaults()
		checkEvalConfig(f, f.evalConfig)
		f.Suite = f.evalConfig.suite()
	}
}

// validateSchema checks the document against its kind's schema and reports
// every violation; it returns whether there were errors. Evaluations are
// checked against their own type's schema directly: the published schema
// selects it with one if/then per registered type, which makes a validator
// try every type on every evaluation.
func (l *Loader) validateSchema(f *File) bool {
	cs := f.gen.schema(f.Kind)
	if cs.err != nil {
		f.addf(nil, Error, "internal", "schema: %v", cs.err)
		return false
	}
	before := len(f.Diagnostics.Errors())
	err := cs.eachPart(f.Kind, f.Doc.Value, func(sch *jsonschema.Schema, loc []string, v any) {
		l.validateAt(f, cs, sch, loc, v)
	})
	if err != nil {
		f.addf(nil, Error, "internal", "schema: %v", err)
	}
	return len(f.Diagnostics.Errors()) == before
}

// eachPart calls fn with each part of a document of kind k that is
// validated on its own, and the schema it is validated against: the
// document (schemaView's) against the kind's schema, then each evaluation
// against its type's. loc is reused between calls. The error is a type's
// schema that did not compile (a fault of ours, not the document's).
func (cs *compiledSchema) eachPart(k Kind, doc any, fn func(sch *jsonschema.Schema, loc []string, v any)) error {
	fn(cs.schema, nil, schemaView(k, doc))
	var errs []error
	for _, site := range cs.evalSites {
		eachSite(doc, site, make([]string, 0, 8), func(loc []string, v any) {
			m, _ := v.(map[string]any)
			typ, _ := m["type"].(string)
			sch, err := cs.evalSchema(typ)
			if err != nil {
				errs = append(errs, err)
			}
			if sch != nil {
				fn(sch, loc, v)
			}
		})
	}
	return errors.Join(errs...)
}

func (l *Loader) validateAt(f *File, cs *compiledSchema, sch *jsonschema.Schema, loc []string, v any) {
	err := sch.Validate(v)
	if err == nil {
		return
	}
	loc = slices.Clone(loc)
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		f.addf(f.Doc.pathOf(loc), Error, "schema", "%v", err)
		return
	}
	f.Diagnostics = append(f.Diagnostics, schemaDiagnostics(f.Doc, cs.doc, loc, ve)...)
}

// schemaView is what a document's schema validates. A matrix's values
// lists keep their first item only: its schema lets an item be anything
// (items: true, held by TestMatrixSchemaLetsValuesBeAnything) and the matrix
// compiler checks every value against the field it sets, with its own
// position, so walking 10^4 values in the validator would cost time and find
// nothing. The document itself is not changed.
func schemaView(k Kind, v any) any {
	m, ok := v.(map[string]any)
	if k != KindMatrix || !ok {
		return v
	}
	axes, ok := m["matrix"].([]any)
	if !ok {
		return v
	}
	view := maps.Clone(m)
	trimmed := make([]any, len(axes))
	for i, ax := range axes {
		trimmed[i] = ax
		a, ok := ax.(map[string]any)
		if !ok {
			continue
		}
		if vals, ok := a["values"].([]any); ok && len(vals) > 1 {
			a = maps.Clone(a)
			a["values"] = vals[:1]
			trimmed[i] = a
		}
	}
	view["matrix"] = trimmed
	return view
}

// precompile starts compiling, on another goroutine, the schemas a file
// will need, as far as its name tells (a matrix needs its base scenario's
// too), so that they are ready when the file is parsed: on a large file the
// two overlap.
func (g *generation) precompile(kind Kind, name string) {
	if kind == KindUnknown {
		kind = detectKind(name, nil)
	}
	var kinds []Kind
	switch kind {
	case KindUnknown:
		return
	case KindMatrix:
		kinds = []Kind{KindMatrix, KindScenario}
	default:
		kinds = []Kind{kind}
	}
	g.mu.Lock()
	var todo []Kind
	for _, k := range kinds {
		if _, ok := g.compiled[k]; !ok {
			todo = append(todo, k) // a later ask for k waits for this compile (see schema)
		}
	}
	g.mu.Unlock()
	if len(todo) > 0 {
		go func() {
			for _, k := range todo {
				g.schema(k)
			}
		}()
	}
}

// schema returns the compiled schema of kind k for this generation's
// vocabulary, compiling it on first use.
func (g *generation) schema(k Kind) *compiledSchema {
	g.mu.Lock()
	if cs, ok := g.compiled[k]; ok {
		g.mu.Unlock()
		<-cs.ready // compiled by the first to ask, maybe still compiling
		return cs
	}
	cs := &compiledSchema{ready: make(chan struct{})}
	g.compiled[k] = cs
	g.mu.Unlock()
	defer close(cs.ready)
	g.compile(k, cs)
	return cs
}

// compile fills cs with the compiled schema of kind k, or its error.
func (g *generation) compile(k Kind, cs *compiledSchema) {
	raw, err := schemaOf(k, g.vocab)
	if err != nil {
		cs.err = err
		return
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	if err := d.Decode(&cs.doc); err != nil {
		cs.err = err
		return
	}
	defs, _ := cs.doc["$defs"].(map[string]any)
	if ev, ok := defs["Evaluation"].(map[string]any); ok {
		// The loader's copy keeps the type check and leaves the per-type
		// branches to validateSchema.
		cs.evalSites = evaluationSites(cs.doc)
		delete(ev, "allOf")
	}
	c := jsonschema.NewCompiler()
	url := schemaBaseURL + k.String() + ".schema.json"
	if err := c.AddResource(url, cs.doc); err != nil {
		cs.err = err
		return
	}
	cs.schema, cs.err = c.Compile(url)
	cs.compiler, cs.url = c, url
}

// evaluationSites lists where evaluations occur in documents of a schema, as
// paths whose "*" elements stand for any index or key: run/*/evaluations/*.
func evaluationSites(doc map[string]any) [][]string {
	defs, _ := doc["$defs"].(map[string]any)
	var out [][]string
	onStack := map[string]bool{}
	var walk func(node any, path []string)
	walk = func(node any, path []string) {
		n, ok := node.(map[string]any)
		if !ok || len(path) > 64 {
			return
		}
		if ref, ok := n["$ref"].(string); ok {
			name, isDef := strings.CutPrefix(ref, "#/$defs/")
			switch {
			case !isDef || onStack[name]:
			case name == "Evaluation":
				out = append(out, slices.Clone(path))
				return
			default:
				onStack[name] = true
				walk(defs[name], path)
				delete(onStack, name)
			}
		}
		if props, ok := n["properties"].(map[string]any); ok {
			for _, k := range slices.Sorted(maps.Keys(props)) {
				walk(props[k], append(slices.Clip(path), k))
			}
		}
		walk(n["items"], append(slices.Clip(path), "*"))
		walk(n["additionalProperties"], append(slices.Clip(path), "*"))
		for _, kw := range []string{"oneOf", "anyOf", "allOf"} {
			subs, _ := n[kw].([]any)
			for _, sub := range subs {
				walk(sub, path)
			}
		}
	}
	walk(doc, nil)
	return out
}

// eachSite calls fn for every value of v at the site pattern (see
// evaluationSites), with its location. loc is reused between calls: fn
// must copy it to keep it.
func eachSite(v any, pattern, loc []string, fn func(loc []string, v any)) {
	if len(pattern) == 0 {
		fn(loc, v)
		return
	}
	tok, rest := pattern[0], pattern[1:]
	switch x := v.(type) {
	case map[string]any:
		if tok != "*" {
			if e, ok := x[tok]; ok {
				eachSite(e, rest, append(loc, tok), fn)
			}
			return
		}
		for _, k := range slices.Sorted(maps.Keys(x)) {
			eachSite(x[k], rest, append(loc, k), fn)
		}
	case []any:
		if tok != "*" {
			return
		}
		for i, e := range x {
			eachSite(e, rest, append(loc, strconv.Itoa(i)), fn)
		}
	}
}

func jsonPointerEscape(s string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}

// addf appends a diagnostic positioned at path (nil: the whole document).
func (f *File) addf(p Path, sev Severity, code, format string, args ...any) *Diagnostic {
	d := Diagnostic{File: f.Name, Path: p.String(), Severity: sev, Code: code, Message: fmt.Sprintf(format, args...)}
	if f.Doc != nil && f.Doc.root != nil {
		d.Line, d.Column, _ = f.Doc.Locate(p)
	}
	f.Diagnostics = append(f.Diagnostics, d)
	return &f.Diagnostics[len(f.Diagnostics)-1]
}

// addKeyf is addf positioned at the mapping key that ends p, for findings
// about a key (a virtual_fs path) rather than its value.
func (f *File) addKeyf(p Path, sev Severity, code, format string, args ...any) {
	d := f.addf(p, sev, code, format, args...)
	if f.Doc != nil && f.Doc.root != nil {
		d.Line, d.Column, _ = f.Doc.LocateKey(p)
	}
}

// loadBase loads a matrix's base scenario. ElizaOS today resolves
// base_scenario against the matrix file's directory; before it changed, it
// resolved it against the directory the command ran in, which was the
// package or repository root. So a base not found beside the matrix is
// looked for relative to the current directory and then to each directory
// above the matrix file's, and loaded with a warning naming both paths.
func (l *Loader) loadBase(fsys fs.FS, f *File) {
	p := Path{}.Key("base_scenario")
	rel := f.Matrix.BaseScenario
	candidates := baseCandidates(fsys, f.Name, rel)
	name := ""
	for _, c := range candidates {
		if st, err := fs.Stat(fsys, c); err == nil {
			if !st.Mode().IsRegular() {
				// A device or a pipe is never read (/dev/zero once took 24 GB).
				f.addf(p, Error, "not-a-file", "base scenario %q: %s is not a regular file: it is %s; give a scenario file", rel, c, infile.Kind(st.Mode()))
				return
			}
			name = c
			break
		}
	}
	switch {
	case name == "" && len(candidates) == 1:
		f.addf(p, Error, "missing-file", "base scenario %q not found (looked for %s, relative to the matrix file)", rel, candidates[0])
		return
	case name == "":
		f.addf(p, Error, "missing-file", "base scenario %q not found (looked for %s, relative to the matrix file, and, as ElizaOS once resolved it, relative to the current directory and to each directory above the matrix file)",
			rel, candidates[0])
		return
	case name != candidates[0]:
		f.addf(p, Warning, "base-fallback", "base scenario %q is not beside the matrix file (looked for %s); loaded %s instead, resolving it as ElizaOS did before it resolved base_scenario against the matrix file's directory; write the path relative to the matrix file",
			rel, candidates[0], name)
	}
	base, _ := l.loadFS(fsys, name, false)
	f.Base = base
	if base.Kind != KindScenario && base.Kind != KindGitHub && base.Doc != nil {
		f.addf(p, Error, "kind", "base scenario %q is a %s file, not a scenario", rel, base.Kind)
	} else if base.Diagnostics.HasErrors() {
		f.addf(p, Error, "base-invalid", "base scenario %q has errors: %s", rel, base.Diagnostics.Errors()[0])
	}
}

// baseCandidates lists where a matrix file's base scenario may be, in the
// order tried: relative to the matrix file's directory; then, for a
// relative path, relative to the current directory (the root of a non-OS
// file system) and to each directory above the matrix file's, nearest
// first, up to the root (on the OS, written relative to the current
// directory when the matrix file's name is). Each appears once.
func baseCandidates(fsys fs.FS, matrixName, rel string) []string {
	out := []string{}
	if _, isOS := fsys.(osFS); !isOS {
		out = append(out, path.Join(path.Dir(matrixName), rel), path.Clean(rel))
		for d := path.Dir(path.Dir(matrixName)); d != "."; d = path.Dir(d) {
			out = append(out, path.Join(d, rel))
		}
		return firstOfEach(out)
	}
	if filepath.IsAbs(rel) {
		return []string{rel}
	}
	out = append(out, filepath.Join(filepath.Dir(matrixName), rel), filepath.Clean(rel))
	dir, err := filepath.Abs(filepath.Dir(matrixName))
	wd, werr := os.Getwd()
	if err != nil || werr != nil {
		return firstOfEach(out)
	}
	for d := filepath.Dir(dir); ; d = filepath.Dir(d) {
		c := filepath.Join(d, rel)
		if !filepath.IsAbs(matrixName) {
			if r, err := filepath.Rel(wd, c); err == nil {
				c = r
			}
		}
		out = append(out, c)
		if d == filepath.Dir(d) {
			break
		}
	}
	return firstOfEach(out)
}

// firstOfEach drops repeated strings, keeping the first of each in place.
func firstOfEach(ss []string) []string {
	seen := map[string]bool{}
	out := ss[:0]
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// osFS reads names as OS paths (absolute or relative to the working directory).
type osFS struct{}

// Open opens a directory, or a regular file through infile (a device or
// a named pipe is refused at once, never read or waited on).
func (osFS) Open(name string) (fs.File, error) {
	if st, err := os.Stat(name); err == nil && st.IsDir() {
		return os.Open(name)
	}
	return infile.Open(name)
}
func (osFS) Stat(name string) (fs.FileInfo, error) {
	return os.Stat(name)
}

// ReadFile reads a regular file of at most infile.MaxBytes.
func (osFS) ReadFile(name string) ([]byte, error) { return infile.ReadFile(name, 0) }
func (osFS) ReadDir(name string) ([]fs.DirEntry, error) {
	return os.ReadDir(name)
}

// isDocumentName reports whether a directory walk should load name.
func isDocumentName(name string) bool {
	base := strings.ToLower(path.Base(filepath.ToSlash(name)))
	for _, suf := range []string{".yaml", ".yml", ".json"} {
		if strings.HasSuffix(base, suf) {
			return true
		}
	}
	return false
}

// dirFS is os.DirFS; a named func keeps the walk's names relative to dir.
func dirFS(dir string) fs.FS { return os.DirFS(dir) }
