package scenario

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSchemasCompileOnceEachConcurrently: many goroutines asking for
// several kinds at once get, for each kind, the one compiled schema, ready
// (each kind compiles outside the generation's lock, once).
func TestSchemasCompileOnceEachConcurrently(t *testing.T) {
	t.Parallel()
	g := NewLoader(testRegistries{}, Options{}).current()
	kinds := []Kind{KindScenario, KindMatrix, KindManifest, KindScenario, KindMatrix}
	got := make([][]*compiledSchema, len(kinds))
	ready := make([][]bool, len(kinds))
	var wg sync.WaitGroup
	for i, k := range kinds {
		got[i], ready[i] = make([]*compiledSchema, 8), make([]bool, 8)
		for j := range got[i] {
			wg.Go(func() {
				cs := g.schema(k)
				// Read as soon as it is returned: a schema handed out before
				// it is compiled shows here (and to the race detector).
				got[i][j], ready[i][j] = cs, cs.err == nil && cs.schema != nil
			})
		}
	}
	wg.Wait()
	for i, k := range kinds {
		for j := range got[i] {
			require.NotNil(t, got[i][j], "%v", k)
			assert.Same(t, g.schema(k), got[i][j], "%v: one compile per kind", k)
			assert.True(t, ready[i][j], "%v: returned compiled", k)
		}
	}
}
