package scenario

import (
	"path"
	"path/filepath"
	"strings"

	"github.com/agenteval/agenteval/internal/formats"
)

// assignIDs gives every file whose id is not written in it (every matrix, an
// agent scenario without id, and the base scenarios of matrices) the id its
// own file name gives (examples/a.scenario.yaml: a). Only when two different
// files (matrices, scenarios, bases) would take one id do those files, and
// only they, take their paths relative to the deepest directory holding them
// instead: examples/a.scenario.yaml and
// docs/a.scenario.yaml, loaded together, become examples/a and docs/a. So a
// file's id never depends on where the command ran from, on the order of the
// paths, or on which other paths were given, unless one of them holds a file of
// the same name: `run scenarios/` and `run scenarios/ more/` give the shared
// files' jobs the same ids, and resume, the shard merge and report compare
// match jobs by them. Written ids are never changed. Calling it again on more
// files recomputes every derived id from scratch. LoadPaths calls it
// (checkSet first thing); a host that loads files one by one and runs them
// together gets an error from runner.FileSources where two would share an id.
func assignIDs(files []*File) {
	type group struct {
		files []*File
		paths map[string]bool // the distinct files (a base may be loaded twice)
	}
	groups := map[string]*group{}
	var order []string
	add := func(f *File) {
		if !derivesID(f) {
			return
		}
		k := formats.IDFromFileName(f.Name)
		g := groups[k]
		if g == nil {
			g = &group{paths: map[string]bool{}}
			groups[k] = g
			order = append(order, k)
		}
		g.files = append(g.files, f)
		g.paths[absName(f.Name)] = true
	}
	for _, f := range files {
		if f == nil {
			continue
		}
		add(f)
		if f.Base != nil {
			add(f.Base)
		}
	}
	for _, k := range order {
		g := groups[k]
		root, ok := "", false
		if len(g.paths) > 1 {
			root, ok = commonDir(g.files)
		}
		for _, f := range g.files {
			id := k
			if ok {
				if rel, err := filepath.Rel(root, absName(f.Name)); err == nil && !strings.HasPrefix(rel, "..") {
					if dir := path.Dir(filepath.ToSlash(rel)); dir != "." {
						id = dir + "/" + id
					}
				}
			}
			f.ID = id
			if f.Scenario != nil {
				f.Scenario.ID = id
			}
		}
	}
}

// fileID is the id a file has once loaded on its own.
func fileID(f *File) string {
	switch {
	case f.Scenario != nil && (f.Kind == KindScenario || f.Kind == KindGitHub):
		return f.Scenario.ID
	case f.Kind == KindMatrix:
		return formats.IDFromFileName(f.Name)
	}
	return ""
}

// derivesID reports whether f's id comes from its path rather than from
// an id it writes.
func derivesID(f *File) bool {
	switch f.Kind {
	case KindMatrix:
		return f.Name != ""
	case KindScenario:
		if f.Scenario == nil || f.Name == "" || f.Doc == nil || f.Doc.root == nil {
			return false
		}
		_, _, declared := f.Doc.Locate(Path{}.Key("id"))
		return !declared
	}
	return false
}

// commonDir returns the deepest directory holding every file, as an
// absolute path; false when there is none (names on different volumes).
func commonDir(files []*File) (string, bool) {
	var common []string
	for i, f := range files {
		dir := filepath.Dir(absName(f.Name))
		parts := strings.Split(filepath.ToSlash(dir), "/")
		if i == 0 {
			common = parts
			continue
		}
		n := 0
		for n < len(common) && n < len(parts) && common[n] == parts[n] {
			n++
		}
		common = common[:n]
	}
	if len(common) == 0 {
		return "", false
	}
	root := filepath.FromSlash(strings.Join(common, "/"))
	if root == "" {
		root = string(filepath.Separator) // every file is under the file system's root
	}
	return root, true
}

// absName returns name as an absolute, clean path when it can.
func absName(name string) string {
	if a, err := filepath.Abs(filepath.FromSlash(name)); err == nil {
		return a
	}
	return filepath.Clean(name)
}
