package xsd

import (
	"encoding/xml"
	"slices"
	"strings"
)

// automaton is a Thompson NFA over child element names: states joined by
// empty moves, and element transitions labelled with a declaration.
type automaton struct {
	eps    [][]int
	moves  []move // at most one per state
	start  int
	accept int
}

type move struct {
	decl *element // nil: no element transition from this state
	to   int
}

func (m *automaton) state() int {
	m.eps = append(m.eps, nil)
	m.moves = append(m.moves, move{})
	return len(m.eps) - 1
}

func (m *automaton) link(from, to int) { m.eps[from] = append(m.eps[from], to) }

// compile builds the automaton of a content model. Automata are small (a
// few states per particle) and built once per Validate, which keeps Schema
// free of caches and safe for concurrent use.
func compile(p *particle) *automaton {
	m := &automaton{}
	m.start, m.accept = m.fragment(p)
	return m
}

// fragment adds a particle with its occurrence bounds and returns its entry
// and exit states.
func (m *automaton) fragment(p *particle) (in, out int) {
	in = m.state()
	out = in
	for range p.min {
		i, o := m.once(p)
		m.link(out, i)
		out = o
	}
	switch {
	case p.max == unbounded:
		i, o := m.once(p)
		loop := m.state()
		m.link(out, loop)
		m.link(loop, i)
		m.link(o, loop)
		out = loop
	default:
		// Each optional copy may be skipped straight to the end.
		end := m.state()
		for range p.max - p.min {
			i, o := m.once(p)
			m.link(out, i)
			m.link(out, end)
			out = o
		}
		m.link(out, end)
		out = end
	}
	return in, out
}

// once adds exactly one occurrence of a particle.
func (m *automaton) once(p *particle) (in, out int) {
	in, out = m.state(), m.state()
	switch p.kind {
	case "element":
		m.moves[in] = move{decl: p.element, to: out}
	case "sequence":
		at := in
		for _, c := range p.children {
			i, o := m.fragment(c)
			m.link(at, i)
			at = o
		}
		m.link(at, out)
	case "choice":
		for _, c := range p.children {
			i, o := m.fragment(c)
			m.link(in, i)
			m.link(o, out)
		}
		if len(p.children) == 0 {
			// An empty choice matches nothing: leave out unreachable.
			return in, out
		}
	}
	return in, out
}

// closure returns the states reachable from set by empty moves, sorted.
func (m *automaton) closure(set []int) []int {
	seen := make([]bool, len(m.eps))
	stack := slices.Clone(set)
	var out []int
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[s] {
			continue
		}
		seen[s] = true
		out = append(out, s)
		stack = append(stack, m.eps[s]...)
	}
	slices.Sort(out)
	return out
}

// step moves on one child element. It returns the declaration the child
// matched (the first in state order when several do) and the next states,
// or nil when no transition accepts the name.
func (m *automaton) step(cur []int, name xml.Name) (*element, []int) {
	if name.Space != "" {
		return nil, nil
	}
	var decl *element
	var next []int
	for _, s := range cur {
		if mv := m.moves[s]; mv.decl != nil && mv.decl.name == name.Local {
			if decl == nil {
				decl = mv.decl
			}
			next = append(next, mv.to)
		}
	}
	if decl == nil {
		return nil, nil
	}
	return decl, m.closure(next)
}

// expected names what may come next, for error messages.
func (m *automaton) expected(cur []int) string {
	var names []string
	for _, s := range cur {
		if d := m.moves[s].decl; d != nil && !slices.Contains(names, "<"+d.name+">") {
			names = append(names, "<"+d.name+">")
		}
	}
	slices.Sort(names)
	end := slices.Contains(cur, m.accept)
	switch {
	case len(names) == 0 && end:
		return "the end of the element"
	case len(names) == 0:
		return "nothing"
	case end:
		return "one of " + strings.Join(names, ", ") + " or the end of the element"
	}
	return "one of " + strings.Join(names, ", ")
}
