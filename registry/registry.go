// Package registry is the one shape every agenteval extension point has:
// evaluation types, judgment strategies, checkpoint condition types and
// custom scorers, conversation termination types, agent types and
// environment types are each a [Registry] of plugin values.
//
// As in golang.org/x/tools/go/analysis (an Analyzer is a value with a
// Name and a Doc) and database/sql (drivers are registered by name,
// twice is an error), a plugin is a plain value that names and documents
// itself; registering is explicit; a duplicate or empty name is an error
// that wraps [ErrDuplicate] or [ErrInvalid]; and the built-ins are
// registered exactly as a host program registers its own. There are no
// global registries: agenteval.New builds one of each and hands the same
// values to the loader, the schema, the runner and the CLI.
package registry

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/agenteval/agenteval/internal/textdist"
)

// Errors a registration wraps; match them with errors.Is.
var (
	// ErrDuplicate: a plugin of that name is registered already.
	ErrDuplicate = errors.New("already registered")
	// ErrInvalid: the plugin is nil, has no name, or lacks what its kind
	// requires (an evaluation type without New, say).
	ErrInvalid = errors.New("invalid plugin")
	// ErrUnknown: no plugin of that name is registered ([Registry.Get],
	// [Registry.Replace]).
	ErrUnknown = errors.New("unknown")
)

// Registry holds plugins of one kind by name. It is safe for concurrent
// use. Make one with [New]; its zero value holds nothing and refuses
// registrations.
type Registry[T any] struct {
	what  string
	name  func(T) string
	check func(T) error

	mu      sync.RWMutex
	byName  map[string]T
	order   []string
	version atomic.Uint64
}

// New returns an empty registry of plugins of one kind. what names the kind
// in messages ("evaluation type"); name returns a plugin's name; check, when
// not nil, reports what else a plugin lacks (it should not check the name).
func New[T any](what string, name func(T) string, check func(T) error) *Registry[T] {
	return &Registry[T]{what: what, name: name, check: check, byName: map[string]T{}}
}

// Error is the registry's one error: a refused registration (wrapping
// ErrDuplicate, ErrInvalid, or ErrUnknown from Replace), or a name
// [Registry.Get] does not know (ErrUnknown, with Suggestion and Known).
type Error struct {
	// What is the kind of plugin, Name the name given or asked for.
	What, Name string
	// Err is the reason.
	Err error
	// Suggestion is, for an unknown name, the registered name most likely
	// meant, or "".
	Suggestion string
	// Known lists, for an unknown name, the registered names, sorted.
	Known []string

	lookup bool // from Get: a name asked for, not a registration
}

// Error says which plugin was refused and why, or, for an unknown name,
// suggests what was likely meant and lists the choices.
func (e *Error) Error() string {
	if e.lookup {
		var b strings.Builder
		fmt.Fprintf(&b, "unknown %s %q", e.What, e.Name)
		if e.Suggestion != "" {
			fmt.Fprintf(&b, "; did you mean %q?", e.Suggestion)
		}
		if len(e.Known) == 0 {
			b.WriteString(" (none is registered)")
		} else {
			fmt.Fprintf(&b, " (known: %s)", strings.Join(e.Known, ", "))
		}
		return b.String()
	}
	if e.Name == "" {
		return fmt.Sprintf("registering a %s: %v", e.What, e.Err)
	}
	return fmt.Sprintf("registering %s %q: %v", e.What, e.Name, e.Err)
}

// Unwrap returns the reason.
func (e *Error) Unwrap() error { return e.Err }

// Register adds plugins in order. It stops at the first one it refuses and
// returns an *[Error]: a nil plugin, an empty name or one check rejects
// (ErrInvalid), or a name taken by a registered plugin (ErrDuplicate), so a
// host cannot silently replace a built-in.
func (r *Registry[T]) Register(plugins ...T) error {
	for _, p := range plugins {
		if err := r.add(p, false); err != nil {
			return err
		}
	}
	return nil
}

// Replace registers p in place of the plugin of the same name, keeping its
// position: the explicit way to supply what a built-in leaves open (a
// provider for the e2b environment type, say). It fails with ErrUnknown
// when no plugin of that name is registered, and like Register otherwise.
func (r *Registry[T]) Replace(p T) error { return r.add(p, true) }

func (r *Registry[T]) add(p T, replace bool) error {
	if r == nil || r.name == nil {
		return &Error{What: "plugin", Err: fmt.Errorf("%w: the registry was not made with registry.New", ErrInvalid)}
	}
	if isNil(p) {
		return &Error{What: r.what, Err: fmt.Errorf("%w: nil", ErrInvalid)}
	}
	name := r.name(p)
	if strings.TrimSpace(name) == "" {
		return &Error{What: r.what, Err: fmt.Errorf("%w: no name", ErrInvalid)}
	}
	if r.check != nil {
		if err := r.check(p); err != nil {
			return &Error{What: r.what, Name: name, Err: fmt.Errorf("%w: %w", ErrInvalid, err)}
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	_, taken := r.byName[name]
	switch {
	case taken && !replace:
		return &Error{What: r.what, Name: name, Err: ErrDuplicate}
	case !taken && replace:
		return &Error{What: r.what, Name: name, Err: fmt.Errorf("%w: nothing of that name to replace", ErrUnknown)}
	case !taken:
		r.order = append(r.order, name)
	}
	r.byName[name] = p
	r.version.Add(1)
	return nil
}

// isNil reports whether p is nil or a nil pointer, func, map or slice.
func isNil(p any) bool {
	if p == nil {
		return true
	}
	switch v := reflect.ValueOf(p); v.Kind() {
	case reflect.Pointer, reflect.Func, reflect.Map, reflect.Slice, reflect.Interface:
		return v.IsNil()
	}
	return false
}

// Lookup returns the plugin registered under name.
func (r *Registry[T]) Lookup(name string) (T, bool) {
	var zero T
	if r == nil {
		return zero, false
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	p, ok := r.byName[name]
	return p, ok
}

// Get returns the plugin registered under name, or an *[Error] wrapping
// ErrUnknown that suggests the name most likely meant.
func (r *Registry[T]) Get(name string) (T, error) {
	if p, ok := r.Lookup(name); ok {
		return p, nil
	}
	var zero T
	known := r.Names()
	what := "plugin"
	if r != nil {
		what = r.what
	}
	return zero, &Error{What: what, Name: name, Err: ErrUnknown, Suggestion: textdist.Suggest(name, known), Known: known, lookup: true}
}

// Names returns the registered names, sorted.
func (r *Registry[T]) Names() []string {
	if r == nil {
		return nil
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	names := slices.Clone(r.order)
	slices.Sort(names)
	return names
}

// All returns the registered plugins in registration order (the built-ins
// first, as agenteval.New registers them).
func (r *Registry[T]) All() []T {
	if r == nil {
		return nil
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]T, len(r.order))
	for i, n := range r.order {
		out[i] = r.byName[n]
	}
	return out
}

// Version counts the registrations so far: it changes whenever what the
// registry holds does, so a cache built from it (a loader's compiled
// schemas) knows when to rebuild.
func (r *Registry[T]) Version() uint64 {
	if r == nil {
		return 0
	}
	return r.version.Load()
}
