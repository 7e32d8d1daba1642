package matrix

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/scenario"
)

func TestParseFilter(t *testing.T) {
	tests := []struct {
		in    string
		path  string
		value any
	}{
		{"max_turns=3", "max_turns", json.Number("3")},
		{"run[1].conversation.max_turns=3.0", "run[1].conversation.max_turns", json.Number("3")},
		{`name="Test A"`, "name", "Test A"},
		{"name=Test A", "name", "Test A"},
		{"name='3'", "name", "3"},
		{"flag=true", "flag", true},
		{"x=null", "x", nil},
		{"tags=[a, b]", "tags", []any{"a", "b"}},
		{`setup.virtual_fs["a=b"]=x=y`, `setup.virtual_fs["a=b"]`, "x=y"},
		{"name=", "", nil}, // error: see below
	}
	for _, tt := range tests[:len(tests)-1] {
		t.Run(tt.in, func(t *testing.T) {
			f, err := parseFilter(tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.path, f.Path.String())
			assert.Equal(t, tt.value, f.Value)
			assert.Equal(t, tt.in, f.String())
		})
	}
}

func TestParseFilterErrors(t *testing.T) {
	tests := map[string]string{
		"name":       `filter "name": want path=value, such as run[0].conversation.max_turns=3`,
		"name=":      `filter "name=": the value is missing; write name="" to match empty text`,
		"=3":         `filter "=3": at character 1: expected a field name, found '='; quote keys that are not identifiers, as in ["data.json"]`,
		"run[0=3":    `filter "run[0=3": at character 6: expected ']' to close the index, found '='`,
		"run]=3":     `filter "run]=3": at character 4: unexpected ']'; want path=value`,
		`name="open`: `filter "name=\"open": value "\"open": syntax error: found unexpected end of stream`,
		"name=[a, b": `filter "name=[a, b": value "[a, b": syntax error: invalid character 'a' looking for beginning of value`,
	}
	for in, want := range tests {
		t.Run(in, func(t *testing.T) {
			_, err := parseFilter(in)
			require.Error(t, err)
			assert.Equal(t, want, err.Error())
		})
	}
	_, err := ParseFilters([]string{"name=a", "bad"})
	assert.EqualError(t, err, `filter "bad": want path=value, such as run[0].conversation.max_turns=3`)
}

func TestParseShard(t *testing.T) {
	s, err := ParseShard("2/5")
	require.NoError(t, err)
	assert.Equal(t, Shard{Index: 2, Count: 5}, s)
	assert.Equal(t, "2/5", s.String())
	assert.Equal(t, "1/1", Shard{}.String())
	assert.True(t, Shard{}.IsWhole())
	assert.False(t, s.IsWhole())
	owned := []int64{}
	for i := range int64(12) {
		if s.Owns(i) {
			owned = append(owned, i)
		}
	}
	assert.Equal(t, []int64{1, 6, 11}, owned, "round-robin by position")
	assert.Equal(t, int64(3), s.Size(12))
	assert.Equal(t, int64(2), s.Size(11))
	assert.True(t, Shard{}.Owns(7))
	assert.Equal(t, int64(7), Shard{}.Size(7))
	for in, want := range map[string]string{
		"2":    `shard "2": want i/n, such as 2/5 for the second of five parts`,
		"a/5":  `shard "a/5": "a" is not a whole number written with digits only (no sign, no leading zero)`,
		"1/b":  `shard "1/b": "b" is not a whole number written with digits only (no sign, no leading zero)`,
		"1/0":  `shard "1/0": the number of shards must be at least 1`,
		"0/3":  `shard "0/3": the shard number must be between 1 and 3 (shards count from 1)`,
		"4/3":  `shard "4/3": the shard number must be between 1 and 3 (shards count from 1)`,
		"-1/3": `shard "-1/3": "-1" is not a whole number written with digits only (no sign, no leading zero)`,
		"02/5": `shard "02/5": "02" is not a whole number written with digits only (no sign, no leading zero)`,
		"+2/5": `shard "+2/5": "+2" is not a whole number written with digits only (no sign, no leading zero)`,
	} {
		_, err := ParseShard(in)
		assert.EqualError(t, err, want, in)
	}
	p := compileText(t, twoAxes, Options{})
	_, err = p.Select(nil, Shard{Index: 3, Count: 2})
	assert.EqualError(t, err, "shard 3/2: want i/n with 1 <= i <= n")
}

func TestFilters(t *testing.T) {
	p := compileText(t, twoAxes, Options{})
	sel := func(texts ...string) ([]string, error) {
		fs, err := ParseFilters(texts)
		require.NoError(t, err)
		q, err := p.Select(fs, Shard{})
		if err != nil {
			return nil, err
		}
		n, err := q.Count()
		require.NoError(t, err)
		var ids []string
		for j, err := range q.Headers(context.Background()) {
			require.NoError(t, err)
			ids = append(ids, fmt.Sprintf("%d:%v/%v/%d", j.Index, j.Params[0].Value, j.Params[1].Value, j.Run))
		}
		assert.Equal(t, int64(len(ids)), n, "Count agrees with the expansion")
		return ids, nil
	}
	got, err := sel("run[1].conversation.max_turns=3")
	require.NoError(t, err)
	assert.Equal(t, []string{"6:3/A/1", "7:3/A/2", "8:3/B/1", "9:3/B/2", "10:3/C/1", "11:3/C/2"}, got)
	got, err = sel("run[1].conversation['max_turns']=3", `name="B"`)
	require.NoError(t, err)
	assert.Equal(t, []string{"8:3/B/1", "9:3/B/2"}, got, "filters AND; jobs keep their global Index")
	got, err = sel("name=C")
	require.NoError(t, err)
	assert.Len(t, got, 4)

	_, err = sel(`run[1].conversation.max_turns="3"`)
	assert.EqualError(t, err, `filter "run[1].conversation.max_turns=\"3\"": no value of run[1].conversation.max_turns matches "3" (it takes 2, 3, and earlier filters may have narrowed it)`)
	_, err = sel("name=A", "name=B")
	assert.Error(t, err)
	_, err = sel("run[1].conversation.max_turn=3")
	assert.EqualError(t, err, `filter "run[1].conversation.max_turn=3": run[1].conversation.max_turn is not a parameter of this matrix; its parameters are run[1].conversation.max_turns, name (did you mean "run[1].conversation.max_turns"?)`)

	// A hand-made filter (no text parsed) works too.
	q, err := p.Select([]Filter{{Path: mustPath(t, "name"), Value: "A"}}, Shard{})
	require.NoError(t, err)
	n, err := q.Count()
	require.NoError(t, err)
	assert.Equal(t, int64(4), n)
	assert.Len(t, q.filters, 1)

	// Selections replace each other, and filtering one plan leaves the
	// plan it came from whole (selections share their arrays of indexes).
	q, err = q.Select([]Filter{{Path: mustPath(t, "name"), Value: "C"}}, Shard{})
	require.NoError(t, err)
	n, err = q.Count()
	require.NoError(t, err)
	assert.Equal(t, int64(4), n)
	for _, from := range []*Plan{p, q} {
		r, err := from.Select(nil, Shard{})
		require.NoError(t, err)
		n, err = r.Count()
		require.NoError(t, err)
		assert.Equal(t, int64(12), n)
		assert.Equal(t, [][]int{{0, 1}, {0, 1, 2}}, r.sel)
	}
	n, err = p.Count()
	require.NoError(t, err)
	assert.Equal(t, int64(12), n)
}

func mustPath(t *testing.T, s string) scenario.Path {
	p, err := parseFullPath(s)
	require.NoError(t, err)
	return p
}

// TestShardsPartition is a property test: for random matrix shapes, runs,
// filters and shard counts, the shards are disjoint, their union is the
// whole run in order, their sizes differ by at most one, and Count agrees.
func TestShardsPartition(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 40 {
		axes := 1 + rng.IntN(3)
		var b strings.Builder
		fmt.Fprintf(&b, "name: m\nbase_scenario: base.scenario.yaml\nruns_per_combination: %d\nmatrix:\n", 1+rng.IntN(3))
		params := []string{"name", "description", "run[0].input"}
		for a := range axes {
			fmt.Fprintf(&b, "  - parameter: '%s'\n    values: [", params[a])
			for v := range 1 + rng.IntN(5) {
				if v > 0 {
					b.WriteString(", ")
				}
				fmt.Fprintf(&b, "v%d", v)
			}
			b.WriteString("]\n")
		}
		p := compileText(t, b.String(), Options{MaxJobs: 0})
		var filters []Filter
		if rng.IntN(2) == 0 {
			f, err := parseFilter("name=v0")
			require.NoError(t, err)
			filters = append(filters, f)
		}
		whole, err := p.Select(filters, Shard{})
		require.NoError(t, err)
		var all []string
		for j, err := range whole.Headers(context.Background()) {
			require.NoError(t, err)
			all = append(all, j.ID)
		}
		n := 1 + rng.IntN(len(all)+3)
		seen := map[string]int{}
		var sizes []int
		var merged []string
		parts := make([][]string, n)
		for i := 1; i <= n; i++ {
			q, err := p.Select(filters, Shard{Index: i, Count: n})
			require.NoError(t, err)
			cnt, err := q.Count()
			require.NoError(t, err)
			for j, err := range q.Headers(context.Background()) {
				require.NoError(t, err)
				seen[j.ID]++
				parts[i-1] = append(parts[i-1], j.ID)
			}
			assert.Equal(t, int64(len(parts[i-1])), cnt, "trial %d shard %d/%d", trial, i, n)
			sizes = append(sizes, len(parts[i-1]))
		}
		// Deal the parts back in round-robin order: that is the whole run.
		for k := 0; len(merged) < len(all); k++ {
			merged = append(merged, parts[k%n][k/n])
		}
		assert.Equal(t, all, merged, "trial %d", trial)
		for id, c := range seen {
			assert.Equal(t, 1, c, "trial %d: %s in %d shards", trial, id, c)
		}
		assert.LessOrEqual(t, slices.Max(sizes)-slices.Min(sizes), 1, "trial %d: balanced", trial)
	}
}
