package registry_test

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/registry"
)

type plugin struct {
	Name, Doc string
	Run       func() string
}

func newRegistry() *registry.Registry[*plugin] {
	return registry.New("widget", func(p *plugin) string { return p.Name }, func(p *plugin) error {
		if p.Run == nil {
			return errors.New("Run is required")
		}
		return nil
	})
}

func run() string { return "ran" }

func TestRegisterLookupAndOrder(t *testing.T) {
	t.Parallel()
	r := newRegistry()
	v0 := r.Version()
	require.NoError(t, r.Register(&plugin{Name: "b", Run: run}, &plugin{Name: "a", Run: run}))
	assert.Greater(t, r.Version(), v0)
	assert.Equal(t, []string{"a", "b"}, r.Names(), "names sorted")
	all := r.All()
	require.Len(t, all, 2)
	assert.Equal(t, "b", all[0].Name, "All in registration order")
	p, ok := r.Lookup("a")
	require.True(t, ok)
	assert.Equal(t, "ran", p.Run())
	_, ok = r.Lookup("c")
	assert.False(t, ok)
}

func TestRegisterRefuses(t *testing.T) {
	t.Parallel()
	r := newRegistry()
	require.NoError(t, r.Register(&plugin{Name: "a", Run: run}))
	v := r.Version()
	tests := []struct {
		name string
		p    *plugin
		want error
		msg  string
	}{
		{"duplicate", &plugin{Name: "a", Run: run}, registry.ErrDuplicate, `registering widget "a": already registered`},
		{"nil", nil, registry.ErrInvalid, "registering a widget: invalid plugin: nil"},
		{"no name", &plugin{Name: " ", Run: run}, registry.ErrInvalid, "registering a widget: invalid plugin: no name"},
		{"check", &plugin{Name: "c"}, registry.ErrInvalid, `registering widget "c": invalid plugin: Run is required`},
	}
	for _, tt := range tests {
		err := r.Register(tt.p)
		require.ErrorIs(t, err, tt.want, tt.name)
		var re *registry.Error
		require.ErrorAs(t, err, &re, tt.name)
		assert.EqualError(t, err, tt.msg, tt.name)
	}
	assert.Equal(t, v, r.Version(), "a refused registration changes nothing")
	assert.Equal(t, []string{"a"}, r.Names())
	var zero registry.Registry[*plugin]
	assert.ErrorIs(t, zero.Register(&plugin{Name: "x", Run: run}), registry.ErrInvalid)
	assert.Empty(t, zero.Names())
}

func TestReplaceIsExplicit(t *testing.T) {
	t.Parallel()
	r := newRegistry()
	require.NoError(t, r.Register(&plugin{Name: "a", Doc: "old", Run: run}, &plugin{Name: "b", Run: run}))
	v := r.Version()
	require.NoError(t, r.Replace(&plugin{Name: "a", Doc: "new", Run: run}))
	assert.Greater(t, r.Version(), v)
	p, _ := r.Lookup("a")
	assert.Equal(t, "new", p.Doc)
	assert.Equal(t, "a", r.All()[0].Name, "the replacement keeps the position")
	err := r.Replace(&plugin{Name: "z", Run: run})
	assert.ErrorIs(t, err, registry.ErrUnknown)
}

func TestGetSuggests(t *testing.T) {
	t.Parallel()
	r := newRegistry()
	require.NoError(t, r.Register(&plugin{Name: "majority_pass", Run: run}, &plugin{Name: "all_pass", Run: run}))
	_, err := r.Get("majorty_pass")
	var unknown *registry.Error
	require.ErrorAs(t, err, &unknown)
	assert.ErrorIs(t, err, registry.ErrUnknown)
	assert.Equal(t, "majority_pass", unknown.Suggestion)
	assert.EqualError(t, err, `unknown widget "majorty_pass"; did you mean "majority_pass"? (known: all_pass, majority_pass)`)
	_, err = newRegistry().Get("x")
	assert.EqualError(t, err, `unknown widget "x" (none is registered)`)
}

func TestConcurrentUse(t *testing.T) {
	t.Parallel()
	r := newRegistry()
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Go(func() {
			_ = r.Register(&plugin{Name: fmt.Sprint("p", i%25), Run: run})
			_ = r.Names()
			_, _ = r.Lookup("p1")
			_ = r.All()
		})
	}
	wg.Wait()
	assert.Len(t, r.Names(), 25, "each name once, the second registration refused")
	assert.Equal(t, uint64(25), r.Version())
}
