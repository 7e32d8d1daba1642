package agenteval_test

import (
	"errors"
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const module = "github.com/agenteval/agenteval"

// archRow is one row of docs/ARCHITECTURE.md's package table.
type archRow struct {
	pkgs    []string // module-relative paths ("" for the root)
	imports string   // the "imports (ours)" cell
}

// TestImportsFollowTheArchitecture checks the package table of
// docs/ARCHITECTURE.md against the code: every package of the module has a
// row, a package imports (outside its tests) only packages of rows below
// its own (imports point one way), only those its row allows, and every
// package a row names as an import is imported by one of its packages.
func TestImportsFollowTheArchitecture(t *testing.T) {
	t.Parallel()
	rows := readArchTable(t)
	rowOf := map[string]int{}
	for i, r := range rows {
		for _, p := range r.pkgs {
			rowOf[p] = i
		}
	}
	imports := modulePackages(t)
	var problems []string
	used := make([]map[int]bool, len(rows))
	for pkg, deps := range imports {
		i, ok := rowOf[pkg]
		if !ok {
			problems = append(problems, "package "+show(pkg)+" has no row in the table")
			continue
		}
		allowed, err := allowedRows(rows, i, rowOf)
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		for _, d := range deps {
			j, ok := rowOf[d]
			switch {
			case !ok:
				continue // reported as a package without a row
			case j < i:
				problems = append(problems, show(pkg)+" imports "+show(d)+", whose row is above its own: imports point down the table")
			case j > i && !allowed[j]:
				problems = append(problems, show(pkg)+" imports "+show(d)+", which its row's imports do not list")
			}
			if used[i] == nil {
				used[i] = map[int]bool{}
			}
			used[i][j] = true
		}
	}
	for i, r := range rows {
		for _, name := range explicitImports(r.imports) {
			j, ok := rowOf[name]
			if ok && !used[i][j] {
				problems = append(problems, "the row of "+show(r.pkgs[0])+" lists "+show(name)+", which none of its packages imports")
			}
		}
	}
	slices.Sort(problems)
	require.Empty(t, problems, "docs/ARCHITECTURE.md's package table and the code disagree")
}

func show(pkg string) string {
	if pkg == "" {
		return "agenteval (root)"
	}
	return pkg
}

// readArchTable reads the rows of the table under "## Packages".
func readArchTable(t *testing.T) []archRow {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("docs", "ARCHITECTURE.md"))
	require.NoError(t, err)
	text := string(data)
	start := strings.Index(text, "\n## Packages")
	require.GreaterOrEqual(t, start, 0, "ARCHITECTURE.md has a Packages section")
	name := regexp.MustCompile("`([^`]+)`")
	var rows []archRow
	for _, line := range strings.Split(text[start+1:], "\n")[1:] {
		if strings.HasPrefix(line, "## ") {
			break
		}
		cells := strings.Split(line, "|")
		if len(cells) < 5 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "`") {
			continue
		}
		var r archRow
		for _, m := range name.FindAllStringSubmatch(cells[1], -1) {
			p := m[1]
			if p == "agenteval" {
				p = ""
			}
			r.pkgs = append(r.pkgs, p)
		}
		r.imports = strings.TrimSpace(cells[len(cells)-2])
		rows = append(rows, r)
	}
	require.NotEmpty(t, rows)
	return rows
}

// importItems splits an imports cell at the commas outside parentheses and
// drops the parenthesised remarks.
func importItems(cell string) []string {
	var items []string
	depth, cur := 0, strings.Builder{}
	for _, r := range cell {
		switch {
		case r == '(':
			depth++
		case r == ')':
			depth--
		case r == ',' && depth == 0:
			items = append(items, strings.TrimSpace(cur.String()))
			cur.Reset()
		case depth == 0:
			cur.WriteRune(r)
		}
	}
	items = append(items, strings.TrimSpace(cur.String()))
	for i, it := range items {
		items[i] = strings.Trim(it, "` ")
	}
	return items
}

// explicitImports are the packages an imports cell names one by one.
func explicitImports(cell string) []string {
	var out []string
	for _, it := range importItems(cell) {
		if it == "" || strings.HasPrefix(it, "—") || strings.Contains(it, " ") {
			continue
		}
		out = append(out, it)
	}
	return out
}

// allowedRows resolves row i's imports cell: package names, "X and below",
// "everything below", or "—" for none.
func allowedRows(rows []archRow, i int, rowOf map[string]int) (map[int]bool, error) {
	allowed := map[int]bool{}
	below := func(from int) {
		for j := from; j < len(rows); j++ {
			allowed[j] = true
		}
	}
	for _, it := range importItems(rows[i].imports) {
		switch {
		case it == "" || strings.HasPrefix(it, "—"):
		case it == "everything below":
			below(i + 1)
		case strings.HasSuffix(it, " and below"):
			name := strings.Trim(strings.TrimSuffix(it, " and below"), "` ")
			if name == "agenteval" {
				name = ""
			}
			j, ok := rowOf[name]
			if !ok {
				return nil, errors.New("the row of " + show(rows[i].pkgs[0]) + " names " + name + ", which has no row")
			}
			below(j)
		default:
			j, ok := rowOf[it]
			if !ok {
				return nil, errors.New("the row of " + show(rows[i].pkgs[0]) + " lists " + it + ", which has no row")
			}
			allowed[j] = true
		}
	}
	return allowed, nil
}

// modulePackages maps every package of the module (module-relative path)
// to the module's packages it imports outside its tests.
func modulePackages(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if base := d.Name(); path != "." && (base == "testdata" || strings.HasPrefix(base, ".") || strings.HasPrefix(base, "_")) {
			return filepath.SkipDir
		}
		p, err := build.ImportDir(path, 0)
		if err != nil {
			var noGo *build.NoGoError
			if errors.As(err, &noGo) {
				return nil
			}
			return err
		}
		rel := filepath.ToSlash(path)
		if rel == "." {
			rel = ""
		}
		var deps []string
		for _, imp := range p.Imports {
			if imp == module || strings.HasPrefix(imp, module+"/") {
				deps = append(deps, strings.TrimPrefix(strings.TrimPrefix(imp, module), "/"))
			}
		}
		out[rel] = deps
		return nil
	})
	require.NoError(t, err)
	return out
}

// maxRunnerLines bounds the non-test Go of package runner (issue 26): the
// driver and the interfaces agents implement stay there; agents,
// environments, the simulated user, fixtures and checkpoint adapters live
// in their own packages.
const maxRunnerLines = 2500

// TestRunnerStaysTheDriver counts runner's non-test lines.
func TestRunnerStaysTheDriver(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("runner/*.go")
	require.NoError(t, err)
	lines := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		lines += strings.Count(string(b), "\n")
	}
	t.Logf("runner: %d lines of non-test Go (under %d)", lines, maxRunnerLines)
	require.Less(t, lines, maxRunnerLines, "runner holds the driver: move what is not the driver to its own package")
}
