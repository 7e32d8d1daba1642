package scenario_test

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/agenteval/agenteval/scenario"
)

// fuzzNames are file names of each kind; the fuzzer picks one by index, so
// the same bytes are tried as every kind of document.
var fuzzNames = []string{
	"a.scenario.yaml", "a.matrix.yaml", "scenario-sets.json", "pr-fix-001.json", "manifest.json", "notes.yaml",
	"a.suite.yaml", "eval.config.yaml",
}

// oddInputs are corner cases of YAML and of the formats, tried as every kind.
var oddInputs = []string{
	"<<: 3\n",
	"a: &a {b: 1}\n<<: [*a, 3, *a]\nname: x\n",
	"a: &a\n  b: *a\n",
	"? [a, b]\n: c\n",
	"? &k {x: 1}\n: v\nz: *k\n",
	"run: {evaluations: 3}\n",
	"run: [{evaluations: {type: x}}]\nname: n\n",
	"run: [{evaluations: [{type: [1]}]}]\n",
	"run: [{conversation: null, evaluations: [{type: conversation_length}]}]\n",
	"run: [{conversation: {turn_evaluations: [{type: conversation_length, target_range: [5]}]}}]\n",
	"setup: {virtual_fs: {'': x}}\n",
	"setup: {virtual_fs: null}\n",
	"checkpoints: [{condition: {type: custom}}]\n",
	"!!binary aGVsbG8=\n",
	"a: !!binary aGVsbG8=\n",
	"a: !!timestamp 2001-12-14\n",
	"a: !custom x\n",
	"a: 0x_\n", "a: 0b101\n", "a: 0o17\n", "a: -0\n", "a: 1e400\n", "a: .nan\n", "a: 99999999999999999999999\n",
	"{\"id\": \"a-001\", \"assertions\": {\"checkpoints\": [{\"condition\": {\"type\": \"count_gte\", \"value\": 1e999}}]}}",
	"[\n", "{", "\"\\ud800\"", "\xff\xfe", "\t\ta: 1", "a: |\n  x\n b: 1\n",
	"base_scenario: ../../../etc/passwd\nmatrix: [{parameter: x, values: [1]}]\nname: m\n",
	"base_scenario: a.matrix.yaml\nmatrix: [{parameter: x, values: [1]}]\nname: m\n",
	"base_scenario: .\nmatrix: [{parameter: x, values: [1]}]\nname: m\n",
	"base_scenario: ''\nmatrix: []\nname: m\n",
	"default: [1, 2]\n", "default: []\n", "{}", "[]", "null", "~", "3",
	"seedId: s\nfixtures: {a: null}\ncreatedAt: x\nrepo: a/b\n",
	"seedId: s\nfixtures: 3\ncreatedAt: x\n",
	`{"a": ["pr-review-comment-001", "pr-review-coment-001", "pr-review-comment-002", ""]}`,
	`{"id": "a-001", "assertions": {"checkpoints": [{"condition": {"type": "field_gte", "path": "items.length", "value": "1"}}]}, "fixture": {"seedPerIteration": 1}}`,
}

// fuzzSeeds returns the peer files and the golden inputs, for the corpus.
func fuzzSeeds(f *testing.F) [][]byte {
	var seeds [][]byte
	var names []string
	for _, glob := range []string{peerDir + "/eliza/*.yaml", peerDir + "/eliza/invalid/*.yaml", peerDir + "/ghx-scenarios/*.json"} {
		n, _ := filepath.Glob(glob)
		names = append(names, n...)
	}
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			f.Fatal(err)
		}
		seeds = append(seeds, b)
	}
	// The real upstream files of the corpus (see testdata/corpus/PROVENANCE.md).
	_ = filepath.WalkDir("../testdata/corpus", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".yaml") || (strings.HasSuffix(p, ".json") && !strings.HasSuffix(p, "EXPECT.json"))) {
			if b, err := os.ReadFile(p); err == nil {
				seeds = append(seeds, b)
			}
		}
		return nil
	})
	archives, _ := filepath.Glob("testdata/diag/*.txtar")
	for _, n := range archives {
		b, err := os.ReadFile(n)
		if err != nil {
			f.Fatal(err)
		}
		for _, file := range parseArchive(b).files {
			if file.name != "want" {
				seeds = append(seeds, file.data)
			}
		}
	}
	for _, s := range oddInputs {
		seeds = append(seeds, []byte(s))
	}
	return append(seeds, []byte(typicalScenario))
}

// FuzzLoad feeds the loader arbitrary bytes under every kind of name. It
// must not panic, and what it returns must be consistent: diagnostics sorted
// and naming the file, an error exactly when one is an error, and a decoded
// value whenever a scenario loads without errors.
func FuzzLoad(f *testing.F) {
	for i, s := range fuzzSeeds(f) {
		f.Add(uint8(i%len(fuzzNames)), s)
	}
	for _, s := range oddInputs {
		for i := range fuzzNames {
			f.Add(uint8(i), []byte(s))
		}
	}
	base := []byte("name: B\ndescription: d\nenvironment: {type: local}\nrun: [{input: hi, evaluations: [{type: string_contains, value: hi}]}]\njudgment: {strategy: all_pass}\n")
	ghxSibling := []byte(`{"id": "pr-review-comment-001", "name": "R", "description": "R.", "prompt": "P", "timeoutMs": 10, "category": "pr", "difficulty": "basic", "assertions": {"checkpoints": []}}`)
	loaders := []*scenario.Loader{
		newLoader(scenario.Options{Limits: scenario.Limits{MaxNodes: 100_000}}),
		newLoader(scenario.Options{Strict: true, Limits: scenario.Limits{MaxNodes: 100_000}}),
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		defer failIfSlow(t, time.Now())
		name := fuzzNames[int(which)%len(fuzzNames)]
		fsys := fstest.MapFS{name: {Data: data}, "test-github-issues.scenario.yaml": {Data: base}, "base.scenario.yaml": {Data: base},
			"pr-review-comment-001.json": {Data: ghxSibling}, "nested/x.matrix.yaml": {Data: data}}
		for _, l := range loaders {
			file, err := l.LoadFS(fsys, name)
			if file == nil {
				t.Fatal("nil file")
			}
			if (err != nil) != file.Diagnostics.HasErrors() {
				t.Fatalf("err %v but diagnostics %v", err, file.Diagnostics)
			}
			if !slices.IsSortedFunc(file.Diagnostics, func(a, b scenario.Diagnostic) int {
				return strings.Compare(a.File, b.File)*4 + cmpInt(a.Line, b.Line)*2 + cmpInt(a.Column, b.Column)
			}) {
				t.Fatalf("diagnostics not sorted: %v", file.Diagnostics)
			}
			for _, d := range file.Diagnostics {
				if d.File != name || d.Line < 0 || d.Column < 0 || d.Code == "" || d.Message == "" {
					t.Fatalf("malformed diagnostic %#v", d)
				}
				_ = d.String()
			}
			if err == nil && (file.Kind == scenario.KindScenario || file.Kind == scenario.KindGitHub) && file.Scenario == nil {
				t.Fatalf("%s loaded without errors but has no scenario", file.Kind)
			}
			if err == nil && ((file.Kind == scenario.KindSuite || file.Kind == scenario.KindEvalConfig) && file.Suite == nil) {
				t.Fatalf("%s loaded without errors but has no suite", file.Kind)
			}
		}
		// As a matrix below the root, whose base may be looked for above it.
		if f, _ := loaders[0].LoadFS(fsys, "nested/x.matrix.yaml"); f == nil {
			t.Fatal("nil file")
		}
		// The same bytes as plain data, without positions.
		if doc, _ := scenario.ParseDocument(name, data, scenario.Limits{MaxNodes: 100_000}); doc != nil {
			for _, k := range scenario.SchemaKinds() {
				_, _ = loaders[0].LoadValue(k, name, doc.Value)
			}
		}
	})
}

// failIfSlow fails a fuzz run that took over ten seconds, so that inputs
// that are slow to load are reported (and kept) like crashes. It does
// nothing outside fuzzing, where a loaded machine may be slow.
func failIfSlow(t *testing.T, start time.Time) {
	if fz := flag.Lookup("test.fuzz"); fz == nil || fz.Value.String() == "" {
		return
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("input took %v to load", d)
	}
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// FuzzParseDocument parses arbitrary bytes and walks every path of the
// result back to a position: no panic, and every found position lies inside
// the text.
func FuzzParseDocument(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	// Nesting past the depth bound, in both syntaxes (it once panicked).
	f.Add([]byte("a: " + strings.Repeat("[", 501) + strings.Repeat("]", 501)))
	f.Add([]byte(`{"a": ` + strings.Repeat(`{"b": `, 501) + "1" + strings.Repeat("}", 502)))
	f.Fuzz(func(t *testing.T, data []byte) {
		defer failIfSlow(t, time.Now())
		doc, diags := scenario.ParseDocument("f.yaml", data, scenario.Limits{MaxNodes: 100_000})
		for _, d := range diags {
			if d.Line < 0 || d.Column < 0 {
				t.Fatalf("negative position: %v", d)
			}
		}
		if doc == nil {
			return
		}
		// An empty value at the end of the text sits at the start of the
		// line after it ("?" has its null value at 2:1).
		// A lone CR breaks lines too.
		text := strings.ReplaceAll(string(data), "\r\n", "\n")
		lines := strings.Count(text, "\n") + strings.Count(text, "\r") + 2
		budget := 10_000
		var walk func(v any, p scenario.Path)
		walk = func(v any, p scenario.Path) {
			if budget--; budget < 0 {
				return
			}
			line, col, found := doc.Locate(p)
			kl, kc, _ := doc.LocateKey(p)
			if found && (line < 1 || line > lines || col < 1 || kl < 1 || kc < 1) {
				t.Fatalf("%s found at %d:%d (key %d:%d) in a %d-line text", p, line, col, kl, kc, lines)
			}
			_ = p.String()
			if got := scenario.ParsePointer(p.Pointer()); len(got) != len(p) {
				t.Fatalf("pointer %q of %s parses to %s", p.Pointer(), p, got)
			}
			switch x := v.(type) {
			case map[string]any:
				for k, e := range x {
					walk(e, p.Key(k))
				}
			case []any:
				for i, e := range x {
					walk(e, p.Index(i))
				}
			}
		}
		walk(doc.Value, nil)
		_ = scenario.DetectKind("f.yaml", doc.Value)
	})
}
