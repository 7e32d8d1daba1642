package judge

import (
	"fmt"
	"slices"
	"strings"
	"sync"
)

// Strategies is a registry of judgment strategies by name. Host programs
// build one with the built-ins ([DefaultStrategies]) and add their own with
// [Strategies.Register], exactly as the built-ins are added; there is no
// global registry. It is safe for concurrent use.
type Strategies struct {
	mu sync.RWMutex
	m  map[string]Strategy
}

// NewStrategies returns a registry holding the given strategies. It fails
// on a nil strategy, an empty name or a name given twice.
func NewStrategies(strategies ...Strategy) (*Strategies, error) {
	r := &Strategies{m: make(map[string]Strategy, len(strategies))}
	for _, s := range strategies {
		if err := r.Register(s); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// DefaultStrategies returns a new registry with the built-in strategies
// all_pass, any_pass, majority_pass and weighted.
func DefaultStrategies() *Strategies {
	r, err := NewStrategies(AllPass(), AnyPass(), MajorityPass(), Weighted())
	if err != nil {
		// The built-in names are distinct constants; reaching this is a
		// programming error in this package.
		panic(err)
	}
	return r
}

// Register adds s. It fails when s is nil, has an empty name or when the
// name is taken, so that a host cannot silently replace a built-in.
func (r *Strategies) Register(s Strategy) error {
	if s == nil {
		return fmt.Errorf("judge: cannot register a nil strategy")
	}
	name := s.Name()
	if strings.TrimSpace(name) == "" {
		return fmt.Errorf("judge: strategy %T has an empty name", s)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.m == nil {
		r.m = make(map[string]Strategy)
	}
	if _, dup := r.m[name]; dup {
		return fmt.Errorf("judge: strategy %q is already registered", name)
	}
	r.m[name] = s
	return nil
}

// Names returns the registered names, sorted.
func (r *Strategies) Names() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	names := make([]string, 0, len(r.m))
	for n := range r.m {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// UnknownStrategyError is returned by [Strategies.Lookup] for a name that is
// not registered.
type UnknownStrategyError struct {
	Name string
	// Suggestion is the closest registered name, if one is close enough to
	// be a likely typo.
	Suggestion string
	// Known lists the registered names.
	Known []string
}

// Error names the strategy, suggests the likely intended one and lists the
// choices.
func (e *UnknownStrategyError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "unknown judgment strategy %q", e.Name)
	if e.Suggestion != "" {
		fmt.Fprintf(&b, "; did you mean %q?", e.Suggestion)
	}
	fmt.Fprintf(&b, " (known: %s)", strings.Join(e.Known, ", "))
	return b.String()
}

// Lookup returns the strategy registered under name. An unknown name yields
// an [*UnknownStrategyError] with a did-you-mean suggestion.
func (r *Strategies) Lookup(name string) (Strategy, error) {
	r.mu.RLock()
	s, ok := r.m[name]
	r.mu.RUnlock()
	if ok {
		return s, nil
	}
	known := r.Names()
	return nil, &UnknownStrategyError{Name: name, Suggestion: closest(name, known), Known: known}
}

// Decide looks up the named strategy and applies it, enforcing the rules
// every strategy shares (see [Guard]) even for host strategies that do not
// check them themselves.
func (r *Strategies) Decide(name string, outcomes []Outcome, opts Options) (Decision, error) {
	s, err := r.Lookup(name)
	if err != nil {
		return Decision{}, err
	}
	if d, done := Guard(name, outcomes); done {
		return d, nil
	}
	return s.Decide(outcomes, opts), nil
}
