package matrix

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/internal/benchecho"
	"github.com/agenteval/agenteval/internal/testvocab"
	"github.com/agenteval/agenteval/scenario"
)

// requireSameBuild fails unless got (the typed builder's scenario) and want
// (cow's) are equal in every field, exported or not, and share exactly the
// same parts with base: a pointer, list or map is the base's in one if and
// only if it is in the other, and lists have the same capacity.
func requireSameBuild(t *testing.T, got, want, base reflect.Value, at string) {
	t.Helper()
	require.Equal(t, want.Kind(), got.Kind(), at)
	same := func(v reflect.Value) bool {
		return base.IsValid() && base.Kind() == v.Kind() && !base.IsNil() && !v.IsNil() && base.Pointer() == v.Pointer()
	}
	sub := func(f func(reflect.Value) reflect.Value) reflect.Value {
		if !base.IsValid() {
			return reflect.Value{}
		}
		return f(base)
	}
	switch got.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice:
		require.Equal(t, want.IsNil(), got.IsNil(), "%s: nil", at)
		if got.IsNil() {
			return
		}
		require.Equal(t, same(want), same(got), "%s: shared with the base in one build only", at)
		switch got.Kind() {
		case reflect.Pointer:
			var b reflect.Value
			if base.IsValid() && !base.IsNil() {
				b = base.Elem()
			}
			requireSameBuild(t, got.Elem(), want.Elem(), b, at+".*")
		case reflect.Slice:
			require.Equal(t, want.Len(), got.Len(), "%s: len", at)
			require.Equal(t, want.Cap(), got.Cap(), "%s: cap", at)
			for i := range got.Len() {
				var b reflect.Value
				if base.IsValid() && i < base.Len() {
					b = base.Index(i)
				}
				requireSameBuild(t, got.Index(i), want.Index(i), b, fmt.Sprintf("%s[%d]", at, i))
			}
		case reflect.Map:
			require.Equal(t, want.Len(), got.Len(), "%s: len", at)
			for _, k := range want.MapKeys() {
				g := got.MapIndex(k)
				require.True(t, g.IsValid(), "%s: key %v", at, k)
				var b reflect.Value
				if base.IsValid() {
					b = base.MapIndex(k)
				}
				requireSameBuild(t, g, want.MapIndex(k), b, fmt.Sprintf("%s[%v]", at, k))
			}
		}
	case reflect.Interface:
		require.Equal(t, want.IsNil(), got.IsNil(), "%s: nil", at)
		if got.IsNil() {
			return
		}
		require.Equal(t, want.Elem().Type(), got.Elem().Type(), at)
		var b reflect.Value
		if base.IsValid() && !base.IsNil() && base.Elem().Type() == got.Elem().Type() {
			b = base.Elem()
		}
		requireSameBuild(t, got.Elem(), want.Elem(), b, at)
	case reflect.Struct:
		for i := range got.NumField() {
			requireSameBuild(t, got.Field(i), want.Field(i), sub(func(b reflect.Value) reflect.Value { return b.Field(i) }), at+"."+got.Type().Field(i).Name)
		}
	case reflect.Array:
		for i := range got.Len() {
			requireSameBuild(t, got.Index(i), want.Index(i), sub(func(b reflect.Value) reflect.Value { return b.Index(i) }), fmt.Sprintf("%s[%d]", at, i))
		}
	case reflect.String:
		require.Equal(t, want.String(), got.String(), at)
	case reflect.Bool:
		require.Equal(t, want.Bool(), got.Bool(), at)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		require.Equal(t, want.Int(), got.Int(), at)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		require.Equal(t, want.Uint(), got.Uint(), at)
	case reflect.Float32, reflect.Float64:
		require.Equal(t, want.Float(), got.Float(), at)
	case reflect.Func, reflect.Chan, reflect.UnsafePointer:
		require.Equal(t, want.Pointer(), got.Pointer(), at)
	default:
		t.Fatalf("%s: unexpected kind %s", at, got.Kind())
	}
}

// requireTypedMatchesCow builds every job of p with the typed builder (as
// Jobs does) and with cow, and compares them.
func requireTypedMatchesCow(t *testing.T, p *Plan) {
	t.Helper()
	generic := *p
	generic.typed = nil
	for j, err := range p.Jobs(context.Background()) {
		require.NoError(t, err)
		want, err := generic.Materialize(j.Index)
		require.NoError(t, err)
		requireSameBuild(t, reflect.ValueOf(j.Scenario), reflect.ValueOf(want), p.baseValue, j.ID)
	}
}

// TestTypedBuildMatchesCow compiles matrices over every shape of path and
// checks that the typed builder takes the shapes it should and builds
// exactly what cow builds, sharing the same parts with the base.
func TestTypedBuildMatchesCow(t *testing.T) {
	t.Parallel()
	echoBase, err := os.ReadFile("../bench/echo/base.scenario.yaml")
	require.NoError(t, err)
	tests := []struct {
		name  string
		base  []byte // nil: testdata/base.scenario.yaml
		axes  [][2]string
		typed bool
	}{
		{name: "echo: the one run step's input", base: echoBase, axes: [][2]string{{"run[0].input", "['a', 'b', 'c d']"}}, typed: true},
		{name: "echo: input and name", base: echoBase, axes: [][2]string{{"run[0].input", "[a, b]"}, {"name", "[x, y]"}}, typed: true},
		{name: "echo: the step's list of checks", base: echoBase, axes: [][2]string{{"run[0].evaluations", "[[{type: string_contains, value: a}], []]"}}, typed: true},
		{name: "a step's input, of two steps", axes: [][2]string{{"run[0].input", "[a, b]"}}, typed: true},
		{name: "fields of both steps", axes: [][2]string{{"run[1].input", "[a, b]"}, {"run[0].name", "[n, m]"}, {"run[0].input", "[c, d]"}}, typed: true},
		{name: "scenario's own fields", axes: [][2]string{{"name", "[a, b]"}, {"description", "['', d]"}, {"timeout_ms", "[0, 1000]"}}, typed: true},
		{name: "inline struct, with a default to redo", axes: [][2]string{{"judgment.strategy", "[all_pass, weighted]"}}, typed: true},
		{name: "environment type", axes: [][2]string{{"environment.type", "[local]"}}, typed: true},
		{name: "plugin name", axes: [][2]string{{"plugins[1].name", "[p, q]"}, {"run[0].input", "[a, b]"}}, typed: true},
		{name: "the whole list", axes: [][2]string{{"run", "[[{input: a}], [{input: b}, {input: c}]]"}}, typed: true},
		{name: "a step's timeout", axes: [][2]string{{"run[0].timeout", "[1000, '2s']"}}, typed: true},
		{name: "through a pointer", axes: [][2]string{{"run[1].conversation.max_turns", "[1, 2]"}}, typed: false},
		{name: "pointer and list", axes: [][2]string{{"run[1].conversation.max_turns", "[1, 2]"}, {"run[0].input", "[a, b]"}}, typed: false},
		{name: "through a map", axes: [][2]string{{`plugins[1].config["api-key"]`, "[a, b]"}}, typed: false},
		{name: "character's model", axes: [][2]string{{"character.llm.model", "[a, b]"}}, typed: false},
		{name: "an evaluation's parameter", axes: [][2]string{{"run[0].evaluations[0].value", "[a, b]"}}, typed: false},
		{name: "a virtual file", axes: [][2]string{{`setup.virtual_fs["data.json"]`, "[a, b]"}}, typed: false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			base := tc.base
			if base == nil {
				var err error
				base, err = os.ReadFile("testdata/base.scenario.yaml")
				require.NoError(t, err)
			}
			var m strings.Builder
			m.WriteString("name: m\nbase_scenario: base.scenario.yaml\nruns_per_combination: 2\nmatrix:\n")
			for _, a := range tc.axes {
				fmt.Fprintf(&m, "  - parameter: '%s'\n    values: %s\n", a[0], a[1])
			}
			fsys := fstest.MapFS{"base.scenario.yaml": {Data: base}, "m.matrix.yaml": {Data: []byte(m.String())}}
			l := scenario.NewLoader(testvocab.Registries(), scenario.Options{})
			f, _ := l.LoadFS(fsys, "m.matrix.yaml")
			p, diags := Compile(f, Options{})
			require.False(t, diags.HasErrors(), "%v", diags)
			assert.Equal(t, tc.typed, p.typed != nil, "typed builder")
			requireTypedMatchesCow(t, p)
		})
	}
	t.Run("single", func(t *testing.T) {
		t.Parallel()
		_, f := loadMatrix(t, oneAxis("name", "[a]"))
		p := Single(f.Base.Scenario, 3, 0)
		require.NotNil(t, p.typed)
		requireTypedMatchesCow(t, p)
	})
	t.Run("echo workload", func(t *testing.T) {
		t.Parallel()
		fsys := fstest.MapFS{"base.scenario.yaml": {Data: echoBase}, "m.matrix.yaml": {Data: benchecho.Matrix(50)}}
		f, _ := scenario.NewLoader(testvocab.Registries(), scenario.Options{}).LoadFS(fsys, "m.matrix.yaml")
		p, diags := Compile(f, Options{})
		require.False(t, diags.HasErrors(), "%v", diags)
		require.NotNil(t, p.typed)
		require.NotNil(t, p.typed.lists[0].single, "one run step: the scenario and its step in one allocation")
		require.Nil(t, p.axes[0].leaves, "texts are their own leaves")
		requireTypedMatchesCow(t, p)
	})
}

// slots lists the steps to every slot under v (struct fields, list
// elements, map entries, through pointers and interfaces), to depth.
func slots(v reflect.Value, prefix []step, depth int, out *[][]step) {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return
		}
		v = v.Elem()
	}
	if depth == 0 {
		return
	}
	add := func(s step, child reflect.Value) {
		p := append(prefix[:len(prefix):len(prefix)], s)
		*out = append(*out, p)
		slots(child, p, depth-1, out)
	}
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				add(step{kind: stepField, field: i}, v.Field(i))
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			add(step{kind: stepIndex, index: i}, v.Index(i))
		}
	case reflect.Map:
		if v.Type().Key().Kind() == reflect.String {
			for _, k := range v.MapKeys() {
				add(step{kind: stepKey, key: k}, v.MapIndex(k))
			}
		}
	}
}

// randomLeaf returns a value of t for a slot that holds old: random for
// scalars, old itself or t's zero value for the rest.
func randomLeaf(r *rand.Rand, t reflect.Type, old reflect.Value) reflect.Value {
	v := reflect.New(t).Elem()
	switch t.Kind() {
	case reflect.String:
		v.SetString(fmt.Sprintf("v%d", r.IntN(1000)))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(r.IntN(100)))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(r.IntN(100)))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(r.Float64())
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 0)
	default:
		if old.IsValid() && r.IntN(2) == 0 {
			v.Set(old)
		}
	}
	return v
}

// randomBases are scenarios with every kind of list the typed builder
// knows, each with one element and with several.
func randomBases(t testing.TB) []randomBase {
	_, f := loadMatrix(t, oneAxis("name", "[a]"))
	fixture := f.Base.Scenario
	yes := true
	threshold := 0.5
	one := &scenario.Scenario{
		ID: "one", Name: "n", Description: "d", Tags: []string{"t"},
		Plugins:     []scenario.Plugin{{Name: "p", Config: map[string]any{"k": "v"}, Enabled: &yes}},
		Environment: scenario.Environment{Type: "local"},
		Run:         []scenario.RunStep{{Name: "s", Input: "i", Evaluations: fixture.Run[0].Evaluations}},
		Judgment:    scenario.Judgment{Strategy: "weighted", Threshold: &threshold},
		Checkpoints: []scenario.Checkpoint{{ID: "c", Task: "pr.commits.list"}},
		TimeoutMS:   5,
	}
	two := *one
	two.Tags = []string{"a", "b", "c"}
	two.Plugins = append(fixture.Plugins, one.Plugins...)
	two.Run = fixture.Run
	two.Checkpoints = append(one.Checkpoints, scenario.Checkpoint{ID: "d"})
	var out []randomBase
	for _, s := range []*scenario.Scenario{fixture, one, &two} {
		b := randomBase{s: s}
		slots(reflect.ValueOf(s), nil, 5, &b.slots)
		require.NotEmpty(t, b.slots)
		out = append(out, b)
	}
	return out
}

// TestTypedBuildRandomized picks random sets of slots (any field, element or
// entry, typed or not), gives each a few random values of its type, and
// checks that whenever the typed builder takes the trie it builds exactly
// what cow builds.
func TestTypedBuildRandomized(t *testing.T) {
	t.Parallel()
	seed := uint64(os.Getpid())
	t.Logf("seed %d", seed)
	typed := 0
	for _, b := range randomBases(t) {
		typed += tryTypedBuilds(t, b, seed, 300)
	}
	assert.Greater(t, typed, 100, "tries the typed builder took")
}

// FuzzTypedBuildMatchesCow is TestTypedBuildRandomized with the fuzzer
// choosing the seeds: go test -fuzz TypedBuild ./matrix.
func FuzzTypedBuildMatchesCow(f *testing.F) {
	bases := randomBases(f)
	for _, seed := range []uint64{0, 1, 15, 1 << 40} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, seed uint64) {
		for _, b := range bases {
			tryTypedBuilds(t, b, seed, 10)
		}
	})
}

// randomBase is a base scenario and every slot in it.
type randomBase struct {
	s     *scenario.Scenario
	slots [][]step
}

// tryTypedBuilds makes tries random tries over b from seed and returns how
// many the typed builder took.
func tryTypedBuilds(t *testing.T, b randomBase, seed uint64, tries int) int {
	r := rand.New(rand.NewPCG(seed, 15))
	bv := reflect.ValueOf(b.s)
	typed := 0
	for range tries {
		trie := &node{axis: -1}
		var axes []axis
		for range 1 + r.IntN(4) {
			steps := b.slots[r.IntN(len(b.slots))]
			if _, ok := trie.insert(steps, len(axes)); !ok {
				continue
			}
			old := get(bv, steps)
			a := axis{steps: steps}
			for range 1 + r.IntN(3) {
				a.leaves = append(a.leaves, randomLeaf(r, old.Type(), old))
			}
			if old.Type() == stringType && r.IntN(2) == 0 {
				// Texts that are their own leaves, as Compile keeps them.
				for _, l := range a.leaves {
					a.values = append(a.values, l.String())
				}
				a.leaves = nil
			}
			axes = append(axes, a)
		}
		tb := planTyped(trie, bv)
		if tb == nil {
			continue
		}
		typed++
		choice := make([]int, len(axes))
		for i := range axes {
			choice[i] = r.IntN(max(len(axes[i].leaves), len(axes[i].values)))
		}
		got := tb.build(b.s, axes, choice)
		want := cow(bv, trie, axes, choice)
		requireSameBuild(t, reflect.ValueOf(got), want, bv, "scenario")
	}
	return typed
}
