package yamlfast

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// notHandled lists the repository's YAML files the fast path leaves to
// yaml.v3, with why.
var notHandled = map[string]string{
	"examples/scale/kubernetes/merge-job.yaml": "anchors and aliases (&restricted, *restricted)",
}

// TestRepoFiles parses every YAML file in the repository (examples,
// testdata, the upstream corpus): each goes through the fast path, to
// yaml.v3's tree, unless notHandled says why not. JSON files are read by
// JSON's rules in scenario.ParseDocument; they are fuzz seeds only.
func TestRepoFiles(t *testing.T) {
	t.Parallel()
	seen := 0
	for _, f := range repoYAML(t) {
		if filepath.Ext(f) == ".json" {
			continue
		}
		rel, err := filepath.Rel(filepath.Join("..", ".."), f)
		require.NoError(t, err)
		rel = filepath.ToSlash(rel)
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		seen++
		handled := checkAgainstV3(t, data)
		if why, listed := notHandled[rel]; listed {
			assert.False(t, handled, "%s is listed as not handled (%s) but the fast path takes it", rel, why)
		} else {
			assert.True(t, handled, "%s does not go through the fast path; list it in notHandled with why", rel)
		}
	}
	assert.Greater(t, seen, 50, "the walk found too few YAML files")
}
