package yamlfast

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// repoYAML lists every .yaml, .yml and .json file in the repository.
func repoYAML(t testing.TB) []string {
	t.Helper()
	root := filepath.Join("..", "..")
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(path) {
		case ".yaml", ".yml", ".json":
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func seeds(t testing.TB) [][]byte {
	var out [][]byte
	for _, f := range repoYAML(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, data)
	}
	// The YAML files inside the CLI's test scripts, bad ones included.
	scripts, err := filepath.Glob(filepath.Join("..", "..", "cmd", "agenteval", "testdata", "script", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	for _, script := range scripts {
		ar, err := txtar.ParseFile(script)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if ext := filepath.Ext(f.Name); ext == ".yaml" || ext == ".yml" {
				out = append(out, f.Data)
			}
		}
	}
	for _, s := range snippets {
		out = append(out, []byte(s))
	}
	return out
}

// snippets are tricky texts for the fuzz corpus and the tests.
var snippets = []string{
	"a: 1\n",
	"---\na: 1\n",
	"--- # c\na: [1, {b: c}]\n",
	"# c\n\nkey:\n- a\n-\n- \nb:\nc: x\nd: |\n  l1\n\n  l2\ne: [1, {a: b}]\nf:   \n  # x\ng: 1\n",
	"a:\n  b:\n    - c: 1\n      d: [x, 'y', \"z\"]\n    - - e\n      - f\n",
	"p: |-\n  one\n    two\n\n  three\n\n\nq: >\n  folded\n  text\n\n  para\n   more\n  end\nr: |+\n  keep\n\n",
	"n: [0x1F, 0o17, 0b101, -0b11, 017, 1_000, +1, -1.5e3, .5, .inf, -.Inf, .NaN, 1e5, 1., ~, null, Null, yes, on, true, FALSE]\n",
	"s: \"\\x41\\u00e9\\U0001F600\\t\\\\\\\" \\N\\_\\L\\P\\/\"\n",
	"'quoted key': 'it''s'\n\"dq\": \"\"\n",
	"é: ü\nkey: 日本語 text\nnext: x\n",
	"a: b: c\n",
	"a: &x 1\nb: *x\n",
	"<<: {a: 1}\n",
	"a: !!str 1\n",
	"a: 2001-12-14\n",
	"a: multi\n  line\n",
	"a: \"multi\n  line\"\n",
	"a:\tb\n",
	"a: 1\r\n",
	"a: |\r\n  x\r\n\r\n  y\r\nb: [c,\r\n  d]\r\ne: f\r\n  g\r\n",
	"a: 1\n---\nb: 2\n",
	"a: 1\n...\n",
	"%YAML 1.2\n---\na: 1\n",
	"? complex\n: key\n",
	"a: [1, 2,]\n",
	"a: {b}\n",
	"a: [b: c]\n",
	"a: [\n  1, 2]\n",
	"- a\n- b: c\n  d: e\n- - f\n",
	"key: |2\n   text\n",
	"key: |\n\n   \n  text\n",
	"k: \"a\" b\n",
	"- |\n  x\n- >-\n  y\n  z\n",
	"a:\n- b\nc: d\n",
	"a:\n  - b\n  c: d\n",
	"a: 1\n b: 2\n",
	"\ufeffa: 1\n",
	"{a: 1}\n",
	"plain\n",
	"",
	"# only a comment\n",
}
