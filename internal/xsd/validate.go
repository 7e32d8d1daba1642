package xsd

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// maxViolations bounds how many problems one Validate reports.
const maxViolations = 50

// Validate checks a document against the schema. It returns nil when the
// document is valid, and otherwise an error listing every violation (up to
// 50) as "line:col: <element>: what is wrong".
func (s *Schema) Validate(r io.Reader) error {
	root, err := parseTree(r)
	if err != nil {
		return fmt.Errorf("xsd: not well-formed: %w", err)
	}
	v := &validator{automata: map[*complexType]*automaton{}}
	if root.name.Space != "" {
		v.fail(root, "element in namespace %q: the schema declares unqualified elements only", root.name.Space)
	} else if decl := s.elements[root.name.Local]; decl == nil {
		v.fail(root, "no global element declaration; the root must be one of %s", strings.Join(sortedKeys(s.elements), ", "))
	} else {
		v.element(root, decl)
	}
	if len(v.errs) == 0 {
		return nil
	}
	if v.dropped > 0 {
		v.errs = append(v.errs, fmt.Errorf("… and %d more violation(s)", v.dropped))
	}
	return errors.Join(v.errs...)
}

type validator struct {
	errs     []error
	dropped  int
	automata map[*complexType]*automaton
}

func (v *validator) fail(n *node, format string, args ...any) {
	if len(v.errs) == maxViolations {
		v.dropped++
		return
	}
	v.errs = append(v.errs, fmt.Errorf("%s: <%s>: %s", n.at, n.name.Local, fmt.Sprintf(format, args...)))
}

func (v *validator) element(n *node, e *element) {
	switch {
	case e.anyType:
		return
	case e.simple != nil:
		for _, a := range n.attrs {
			if !ignorableAttr(a.Name.Space, a.Name.Local) {
				v.fail(n, "attribute %s is not allowed: the element has simple content", a.Name.Local)
			}
		}
		if len(n.children) > 0 {
			v.fail(n.children[0], "child element not allowed: <%s> has simple content", n.name.Local)
		}
		if msg := e.simple.check(n.text.String()); msg != "" {
			v.fail(n, "content: %s", msg)
		}
	default:
		v.complex(n, e.complex)
	}
}

func (v *validator) complex(n *node, t *complexType) {
	seen := map[string]bool{}
	for _, a := range n.attrs {
		if ignorableAttr(a.Name.Space, a.Name.Local) {
			continue
		}
		i := slices.IndexFunc(t.attributes, func(d attribute) bool { return a.Name.Space == "" && d.name == a.Name.Local })
		if i < 0 {
			v.fail(n, "attribute %s is not declared (allowed: %s)", a.Name.Local, attrNames(t))
			continue
		}
		seen[a.Name.Local] = true
		if msg := t.attributes[i].simple.check(a.Value); msg != "" {
			v.fail(n, "attribute %s: %s", a.Name.Local, msg)
		}
	}
	for _, d := range t.attributes {
		if d.required && !seen[d.name] {
			v.fail(n, "required attribute %s is missing", d.name)
		}
	}
	if !t.mixed && strings.TrimSpace(n.text.String()) != "" {
		v.fail(n, "text is not allowed here (element-only content)")
	}
	if t.content == nil {
		if len(n.children) > 0 {
			v.fail(n.children[0], "no child elements allowed in <%s>", n.name.Local)
		}
		return
	}
	m := v.automata[t]
	if m == nil {
		m = compile(t.content)
		v.automata[t] = m
	}
	cur := m.closure([]int{m.start})
	for _, c := range n.children {
		decl, next := m.step(cur, c.name)
		if decl == nil {
			v.fail(c, "not allowed here in <%s>; expected %s", n.name.Local, m.expected(cur))
			return // the rest of the children cannot be placed reliably
		}
		v.element(c, decl)
		cur = next
	}
	if !slices.Contains(cur, m.accept) {
		v.fail(n, "content ends too early; expected %s", m.expected(cur))
	}
}

// ignorableAttr reports attributes that are not the schema's business:
// namespace declarations and the schema-instance attributes.
func ignorableAttr(space, local string) bool {
	return space == "xmlns" || (space == "" && local == "xmlns") || space == xsiNS ||
		space == "http://www.w3.org/XML/1998/namespace"
}

func attrNames(t *complexType) string {
	if len(t.attributes) == 0 {
		return "none"
	}
	names := make([]string, len(t.attributes))
	for i, a := range t.attributes {
		names[i] = a.name
	}
	return strings.Join(names, ", ")
}

// check returns what is wrong with a value of the type, or "".
func (t *simpleType) check(v string) string {
	for s := t; s != nil; s = s.base {
		for _, re := range s.patterns {
			if !re.MatchString(v) {
				return fmt.Sprintf("%q does not match the pattern of type %s", v, t.name)
			}
		}
		if len(s.enum) > 0 && !slices.Contains(s.enum, v) {
			return fmt.Sprintf("%q is not one of %s (type %s)", v, strings.Join(s.enum, ", "), t.name)
		}
	}
	return ""
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
