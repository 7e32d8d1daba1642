package scenario

import (
	"path"
	"path/filepath"
	"strings"

	"github.com/agenteval/agenteval/internal/formats"
)

// assignIDs gives every file whose id is not written in it (every matrix, an
// agent scenario without id, and the base scenarios of matrices) the id of
// its path relative to the deepest directory that holds all the files, without
// its suffix: examples/a.scenario.yaml and docs/a.scenario.yaml, loaded
// together, become examples/a and docs/a, while a file loaded on its own keeps
// its bare name (a). Written ids are never changed. The result depends only
// on the files' paths, so the same inputs give the same ids on every run
// (resume and shard merges rely on that), whatever order they come in, and
// calling it again on more files recomputes every derived id from scratch.
// LoadPaths calls it (checkSet first thing); a host that loads files one
// by one and runs them together gets an error from runner.FileSources
// where two would share an id.
func assignIDs(files []*File) {
	var all []*File
	for _, f := range files {
		if f == nil {
			continue
		}
		all = append(all, f)
		if f.Base != nil {
			all = append(all, f.Base)
		}
	}
	root, ok := commonDir(all)
	for _, f := range all {
		if !derivesID(f) {
			continue
		}
		id := formats.IDFromFileName(f.Name)
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
