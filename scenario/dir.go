package scenario

import (
	"fmt"
	"io/fs"
	"path"
	"slices"
)

// Set is what a directory walk loaded: every document, and the findings
// that concern several files at once (duplicate ids, scenario sets naming
// ids that do not exist).
type Set struct {
	// Files are the loaded documents in path order.
	Files []*File
	// Diagnostics are all findings of all files, plus the cross-file ones.
	Diagnostics Diagnostics
}

// scenarios returns the runnable scenarios (agent and GitHub), in path order.
func (s *Set) scenarios() []*File {
	var out []*File
	for _, f := range s.Files {
		if f.Scenario != nil && (f.Kind == KindScenario || f.Kind == KindGitHub) {
			out = append(out, f)
		}
	}
	return out
}

// matrices returns the matrix files, in path order.
func (s *Set) matrices() []*File {
	var out []*File
	for _, f := range s.Files {
		if f.Matrix != nil {
			out = append(out, f)
		}
	}
	return out
}

// LoadPaths loads what agenteval validate and run are given: each path a
// file, or a directory whose .yaml, .yml and .json files are loaded. The
// files get their run ids (unique across the files, derived from their paths where they write none) and, for several paths, the checks
// across files ([checkSet]). A path that cannot be read is an error and
// the Set is nil; otherwise the error, when not nil, is the Set's
// Diagnostics, which hold an error.
func (l *Loader) LoadPaths(paths ...string) (*Set, error) {
	set := &Set{}
	for _, p := range paths {
		st, err := fs.Stat(osFS{}, p)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		if st.IsDir() {
			dir, _ := l.loadDir(p)
			if dir == nil {
				return nil, fmt.Errorf("%s: cannot read directory", p)
			}
			set.Files = append(set.Files, dir.Files...)
			set.Diagnostics = append(set.Diagnostics, dir.Diagnostics...)
			continue
		}
		f, _ := l.LoadFile(p)
		set.Files = append(set.Files, f)
		set.Diagnostics = append(set.Diagnostics, f.Diagnostics...)
	}
	if len(paths) > 1 {
		set.Diagnostics = append(set.Diagnostics, checkSet(set.Files)...)
	} else {
		assignIDs(set.Files) // a directory's were; a file's base may lie elsewhere
	}
	set.Diagnostics = set.Diagnostics.Sort()
	return set, set.Diagnostics.err()
}

// loadDir loads every .yaml, .yml and .json file below dir on disk.
func (l *Loader) loadDir(dir string) (*Set, error) {
	return l.loadTree(osFS{}, dir)
}

// LoadDirFS loads every .yaml, .yml and .json file below dir in fsys.
func (l *Loader) LoadDirFS(fsys fs.FS, dir string) (*Set, error) {
	return l.loadTree(fsys, dir)
}

func (l *Loader) loadTree(fsys fs.FS, dir string) (*Set, error) {
	var names []string
	walkFS := fsys
	root := dir
	if _, isOS := fsys.(osFS); isOS {
		walkFS = dirFS(dir)
		root = "."
	}
	err := fs.WalkDir(walkFS, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && (d.Name() == "testdata" || d.Name()[0] == '.' || d.Name() == "node_modules") {
				return fs.SkipDir
			}
			return nil
		}
		if isDocumentName(p) {
			names = append(names, p)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("scenario: walking %s: %w", dir, err)
	}
	slices.Sort(names)
	set := &Set{}
	for _, n := range names {
		name := n
		if _, isOS := fsys.(osFS); isOS {
			name = path.Join(dir, n)
		}
		f, _ := l.LoadFS(fsys, name)
		if skipped(f) {
			// A directory holds other YAML and JSON too (CI configs, seed
			// files, capability cards): say so, and go on. A file named
			// explicitly is still an error when it cannot be placed.
			set.Diagnostics = append(set.Diagnostics, Diagnostic{File: f.Name, Severity: Warning, Code: "skipped",
				Message: "skipped: not a scenario, GitHub eval scenario, matrix, manifest or scenario-sets file"})
			continue
		}
		set.Files = append(set.Files, f)
		set.Diagnostics = append(set.Diagnostics, f.Diagnostics...)
	}
	set.Diagnostics = append(set.Diagnostics, checkSet(set.Files)...)
	set.Diagnostics = l.finish(set.Diagnostics)
	return set, set.Diagnostics.err()
}

// checkSet finds problems across files: two scenarios with one id. It
// first gives the files their ids with assignIDs, so that two files of one
// name in different directories are not taken for one scenario. (A
// scenario-sets file is checked when it is loaded, against the scenarios in
// its own directory, as ghx looks its members up.)
func checkSet(files []*File) Diagnostics {
	assignIDs(files)
	var out Diagnostics
	ids := map[string]*File{}
	for _, f := range files {
		if f.Scenario == nil || (f.Kind != KindScenario && f.Kind != KindGitHub) {
			continue
		}
		id := f.Scenario.ID
		if prev, dup := ids[id]; dup {
			d := Diagnostic{File: f.Name, Path: Path{}.Key("id"), Severity: Error, Code: "duplicate-id",
				Message: fmt.Sprintf("scenario id %q is already used by %s", id, prev.Name)}
			if f.Doc != nil {
				var found bool
				d.Line, d.Column, found = f.Doc.Locate(Path{}.Key("id"))
				if !found {
					d.Message = fmt.Sprintf("scenario id %q (from the file name) is already used by %s; give one of them an id", id, prev.Name)
				}
			}
			out = append(out, d)
			continue
		}
		ids[id] = f
	}
	return out
}

// skipped reports whether a walked file is not one of our documents: it
// parsed, but its kind could not be told, and nothing else is wrong with it.
func skipped(f *File) bool {
	if f.Kind != KindUnknown || f.Doc == nil {
		return false
	}
	for _, d := range f.Diagnostics {
		if d.Severity == Error && d.Code != "kind" {
			return false
		}
	}
	return true
}
