package keytable

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTableFindsWhatWasAdded adds keys through several growths and finds
// each, and none that was not added.
func TestTableFindsWhatWasAdded(t *testing.T) {
	t.Parallel()
	var keys []string
	key := func(i int32) string { return keys[i] }
	var tab Table
	_, ok := tab.Find("x", key)
	require.False(t, ok, "the zero Table is empty")
	for i := range 5000 {
		k := fmt.Sprintf("m/c-%x/%d", i*7919, i%3)
		_, ok := tab.Find(k, key)
		require.False(t, ok, k)
		keys = append(keys, k)
		tab.Add(int32(len(keys)-1), key)
	}
	assert.Equal(t, 5000, tab.Len())
	for i, k := range keys {
		got, ok := tab.Find(k, key)
		require.True(t, ok, k)
		assert.EqualValues(t, i, got)
	}
	for _, k := range []string{"", "m/c-0/1", "x"} {
		_, ok := tab.Find(k, key)
		assert.False(t, ok, k)
	}
	assert.LessOrEqual(t, 2*tab.Len(), len(tab.slots), "at most half full")
}
