package scenario

import (
	"io/fs"
	"maps"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agenteval/agenteval/internal/textdist"
)

// checkSets checks every member of a scenario-sets file against the GitHub
// scenarios beside it, where ghx's loader looks them up: the *.json files
// of the sets file's own directory (not its subdirectories), whatever files
// were named along with it. A sets file is checked on its own too.
func (l *Loader) checkSets(fsys fs.FS, f *File) {
	dir, ids, err := l.siblingIDs(fsys, f.Name)
	if err != nil {
		f.addf(nil, Error, "read", "cannot read the scenarios beside the sets file: %v", err)
		return
	}
	known := slices.Sorted(maps.Keys(ids))
	for _, set := range slices.Sorted(maps.Keys(f.Sets)) {
		for i, id := range f.Sets[set] {
			if ids[id] {
				continue
			}
			d := f.addf(Path{}.Key(set).Index(i), Error, "unknown-id",
				"set %q names scenario %q, but none of the *.json scenarios in %s has that id", set, id, dir+"/")
			d.Suggestion = suggestID(id, known)
		}
	}
}

// siblingIDs returns the ids of the GitHub scenarios among the *.json files
// in the directory of name (other than name itself), as ghx's loader reads
// that directory, and the directory as it names it in messages.
func (l *Loader) siblingIDs(fsys fs.FS, name string) (string, map[string]bool, error) {
	var dir string
	join := path.Join
	if _, isOS := fsys.(osFS); isOS {
		dir, join = filepath.Dir(name), filepath.Join
	} else {
		dir = path.Dir(name)
	}
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return dir, nil, err
	}
	max := int64(l.opts.Limits.withDefaults().MaxBytes)
	ids := map[string]bool{}
	for _, e := range entries {
		sibling := join(dir, e.Name())
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") || sibling == name {
			continue
		}
		if info, err := e.Info(); err != nil || info.Size() > max {
			continue // reported when the file itself is loaded
		}
		data, err := fs.ReadFile(fsys, sibling)
		if err != nil {
			continue
		}
		doc, _ := ParseDocument(sibling, data, l.opts.Limits)
		if doc == nil || detectKind(sibling, doc.Value) != KindGitHub {
			continue
		}
		if m, ok := doc.Value.(map[string]any); ok {
			if id, ok := m["id"].(string); ok {
				ids[id] = true
			}
		}
	}
	return dir, ids, nil
}

// suggestID returns the known id nearest to id when it is a likely
// misspelling of it (at most two edits, and no more than one in eight
// characters), else "". Ids share words and suffixes (pr-, -wf-001), so
// Suggest's looser rules would offer a different scenario; for the same
// reason an id that differs only in its number (-001, -002) is another
// scenario, not a misspelling.
func suggestID(id string, known []string) string {
	limit := min(2, max(1, len(id)/8))
	best, bestD := "", limit+1
	for _, k := range known {
		if d := textdist.Distance(id, k); d < bestD && !sameButNumber(id, k) {
			best, bestD = k, d
		}
	}
	return best
}

// sameButNumber reports whether two ids differ only in their trailing
// number: pr-review-comment-001 and pr-review-comment-002.
func sameButNumber(a, b string) bool {
	trim := func(s string) string { return strings.TrimRight(s, "0123456789") }
	return trim(a) == trim(b) && trim(a) != a && trim(b) != b
}
