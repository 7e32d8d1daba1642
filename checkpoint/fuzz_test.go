package checkpoint

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/agenteval/agenteval/scenario"
)

// FuzzConditions checks arbitrary data against every condition type with
// an arbitrary path and value: a verdict or an error, never a panic.
func FuzzConditions(f *testing.F) {
	f.Add(`{"items":[{"title":"a"}],"pageInfo":{"hasNextPage":false}}`, "items.0.title", `"a"`)
	f.Add(`[1,2,3]`, "length", `3`)
	f.Add(`{"a":{"b":null}}`, "a.b.c.-1", `null`)
	reg := NewRegistry(NewScorers())
	f.Fuzz(func(t *testing.T, data, path, value string) {
		var d, v any
		if json.Unmarshal([]byte(data), &d) != nil || json.Unmarshal([]byte(value), &v) != nil {
			return
		}
		for _, typ := range reg.Names() {
			_, _, _ = check(context.Background(), reg, d, scenario.Condition{Type: typ, Path: path, Value: v, Scorer: path})
			_ = describe(reg, scenario.Condition{Type: typ, Path: path, Value: v})
		}
	})
}
