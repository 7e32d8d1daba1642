// Package xsd validates XML documents against a W3C XML Schema, for tests
// that check our XML outputs against schemas other projects publish (the
// Jenkins xunit plugin's junit-10.xsd). The schema file stays the source of
// truth: nothing about it is copied into Go.
//
// It implements the part of XML Schema 1.0 such schemas use, and refuses
// to load a schema that uses anything else, so that a construct it does not
// know can never be skipped silently:
//
//   - global and local element declarations, element references, named and
//     anonymous complex types, mixed content;
//   - content models built from sequence and choice with minOccurs and
//     maxOccurs (matched by a Thompson automaton, so ambiguous models and
//     unbounded repetitions cost linear time);
//   - attributes with use="required", undeclared attributes rejected
//     (namespace declarations and xsi: attributes aside);
//   - simple types xs:string and restrictions of it by pattern and
//     enumeration; XML Schema regular expressions are translated to Go's
//     (implicitly anchored, ^ and $ literal, \d any decimal digit);
//     character class subtraction and \i, \c are refused.
//
// A schema without a targetNamespace describes unqualified elements only.
package xsd

import (
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// xsdNS is the namespace of XML Schema's own elements and built-in types.
const xsdNS = "http://www.w3.org/2001/XMLSchema"

// xsiNS is the namespace of the schema-instance attributes a document may carry.
const xsiNS = "http://www.w3.org/2001/XMLSchema-instance"

// unbounded marks maxOccurs="unbounded".
const unbounded = -1

// maxExpansion bounds minOccurs and a bounded maxOccurs: the automaton
// copies a particle that many times.
const maxExpansion = 1000

// Schema is a loaded schema. It is immutable and safe for concurrent use.
type Schema struct {
	elements map[string]*element
}

// element is an element declaration: global, local, or a reference
// resolved to a global one.
type element struct {
	name string
	// typeRef is the QName of its type (resolved into complex or simple
	// once the whole schema is read); empty for an anonymous type or for
	// xs:anyType.
	typeRef qname
	complex *complexType
	simple  *simpleType
	anyType bool
	at      pos
}

// complexType is a complex type: attributes and a content model.
type complexType struct {
	name       string
	mixed      bool
	content    *particle // nil: empty content
	attributes []attribute
}

// attribute is an attribute declaration.
type attribute struct {
	name     string
	required bool
	typeRef  qname
	simple   *simpleType
}

// particle is a node of a content model.
type particle struct {
	kind     string // "element", "sequence" or "choice"
	min, max int    // max is unbounded for no limit
	element  *element
	ref      qname // for kind "element" declared by ref, until resolved
	children []*particle
}

// simpleType is xs:string or a restriction of another simple type.
type simpleType struct {
	name     string
	base     *simpleType // nil for xs:string
	baseRef  qname
	patterns []*regexp.Regexp
	enum     []string
}

// qname is a resolved qualified name.
type qname struct{ space, local string }

func (q qname) String() string {
	if q.space == "" {
		return q.local
	}
	return "{" + q.space + "}" + q.local
}

// pos is a position in a file.
type pos struct{ line, col int }

func (p pos) String() string { return fmt.Sprintf("%d:%d", p.line, p.col) }

// Load reads a schema. It fails on malformed XML, on unresolved names and
// on any schema construct this package does not implement.
func Load(r io.Reader) (*Schema, error) {
	root, err := parseTree(r)
	if err != nil {
		return nil, fmt.Errorf("xsd: %w", err)
	}
	l := &loader{
		globals: map[string]*element{},
		complex: map[string]*complexType{},
		simple:  map[string]*simpleType{},
	}
	if err := l.schema(root); err != nil {
		return nil, fmt.Errorf("xsd: %w", err)
	}
	return &Schema{elements: l.globals}, nil
}

// loader turns a schema's node tree into declarations.
type loader struct {
	ns        map[string]string // prefix → namespace, from the schema element
	target    string
	globals   map[string]*element
	complex   map[string]*complexType
	simple    map[string]*simpleType
	elemRefs  []*particle
	typedElem []*element
	typedAttr []*attribute
	simpleRef []*simpleType
}

func (l *loader) schema(n *node) error {
	if n.name.Space != xsdNS || n.name.Local != "schema" {
		return fmt.Errorf("%s: the root element is %s, not xs:schema", n.at, n.name.Local)
	}
	l.ns = map[string]string{}
	for _, a := range n.attrs {
		switch {
		case a.Name.Space == "xmlns":
			l.ns[a.Name.Local] = a.Value
		case a.Name.Space == "" && a.Name.Local == "xmlns":
			l.ns[""] = a.Value
		}
	}
	if err := n.onlyAttrs("targetNamespace", "elementFormDefault", "attributeFormDefault", "version"); err != nil {
		return err
	}
	if t := n.attr("targetNamespace"); t != "" {
		return fmt.Errorf("%s: targetNamespace %q: only schemas without a target namespace are supported", n.at, t)
	}
	for _, c := range n.children {
		if c.name.Space != xsdNS {
			return fmt.Errorf("%s: unexpected element %s in xs:schema", c.at, c.name.Local)
		}
		switch c.name.Local {
		case "annotation":
		case "element":
			e, err := l.element(c, true)
			if err != nil {
				return err
			}
			if l.globals[e.name] != nil {
				return fmt.Errorf("%s: element %s is declared twice", c.at, e.name)
			}
			l.globals[e.name] = e
		case "complexType":
			t, err := l.complexType(c, true)
			if err != nil {
				return err
			}
			if l.complex[t.name] != nil || l.simple[t.name] != nil {
				return fmt.Errorf("%s: type %s is declared twice", c.at, t.name)
			}
			l.complex[t.name] = t
		case "simpleType":
			t, err := l.simpleType(c, true)
			if err != nil {
				return err
			}
			if l.complex[t.name] != nil || l.simple[t.name] != nil {
				return fmt.Errorf("%s: type %s is declared twice", c.at, t.name)
			}
			l.simple[t.name] = t
		default:
			return unsupported(c)
		}
	}
	return l.resolve()
}

// resolve binds every reference by name once all declarations are read.
func (l *loader) resolve() error {
	for _, p := range l.elemRefs {
		g := l.globals[p.ref.local]
		if p.ref.space != l.target || g == nil {
			return fmt.Errorf("reference to undeclared element %s", p.ref)
		}
		p.element = g
	}
	for _, t := range l.simpleRef {
		b, err := l.simpleByName(t.baseRef)
		if err != nil {
			return err
		}
		t.base = b
	}
	for _, e := range l.typedElem {
		switch {
		case e.typeRef == qname{xsdNS, "anyType"}:
			e.anyType = true
		case e.typeRef.space == l.target && l.complex[e.typeRef.local] != nil:
			e.complex = l.complex[e.typeRef.local]
		default:
			s, err := l.simpleByName(e.typeRef)
			if err != nil {
				return fmt.Errorf("%s: element %s: %w", e.at, e.name, err)
			}
			e.simple = s
		}
	}
	for _, a := range l.typedAttr {
		s, err := l.simpleByName(a.typeRef)
		if err != nil {
			return fmt.Errorf("attribute %s: %w", a.name, err)
		}
		a.simple = s
	}
	// A restriction chain must end at xs:string.
	for _, t := range l.simple {
		seen := map[*simpleType]bool{}
		for b := t; b != nil; b = b.base {
			if seen[b] {
				return fmt.Errorf("simple type %s derives from itself", t.name)
			}
			seen[b] = true
		}
	}
	return nil
}

// stringType is the built-in xs:string.
var stringType = &simpleType{name: "xs:string"}

func (l *loader) simpleByName(q qname) (*simpleType, error) {
	if q.space == xsdNS {
		if q.local == "string" {
			return stringType, nil
		}
		return nil, fmt.Errorf("built-in type xs:%s is not supported (only xs:string)", q.local)
	}
	if q.space == l.target && l.simple[q.local] != nil {
		return l.simple[q.local], nil
	}
	return nil, fmt.Errorf("undeclared simple type %s", q)
}

// qname resolves a QName written in an attribute value.
func (l *loader) qname(n *node, v string) (qname, error) {
	prefix, local, ok := strings.Cut(v, ":")
	if !ok {
		prefix, local = "", v
	}
	space, known := l.ns[prefix]
	if !known && prefix != "" {
		return qname{}, fmt.Errorf("%s: %q uses the undeclared prefix %q", n.at, v, prefix)
	}
	return qname{space, local}, nil
}

func (l *loader) element(n *node, global bool) (*element, error) {
	allowed := []string{"name", "type"}
	if !global {
		allowed = append(allowed, "minOccurs", "maxOccurs")
	}
	if err := n.onlyAttrs(allowed...); err != nil {
		return nil, err
	}
	e := &element{name: n.attr("name"), at: n.at}
	if e.name == "" {
		return nil, fmt.Errorf("%s: xs:element without a name", n.at)
	}
	var anon int
	for _, c := range n.children {
		if c.name.Space != xsdNS {
			return nil, fmt.Errorf("%s: unexpected element %s in xs:element", c.at, c.name.Local)
		}
		switch c.name.Local {
		case "annotation":
		case "complexType":
			t, err := l.complexType(c, false)
			if err != nil {
				return nil, err
			}
			e.complex = t
			anon++
		case "simpleType":
			t, err := l.simpleType(c, false)
			if err != nil {
				return nil, err
			}
			e.simple = t
			anon++
		default:
			return nil, unsupported(c)
		}
	}
	tv := n.attr("type")
	switch {
	case anon > 1 || (anon == 1 && tv != ""):
		return nil, fmt.Errorf("%s: element %s has more than one type", n.at, e.name)
	case tv != "":
		q, err := l.qname(n, tv)
		if err != nil {
			return nil, err
		}
		e.typeRef = q
		l.typedElem = append(l.typedElem, e)
	case anon == 0:
		e.anyType = true // no type given: xs:anyType
	}
	return e, nil
}

func (l *loader) complexType(n *node, named bool) (*complexType, error) {
	if err := n.onlyAttrs("name", "mixed"); err != nil {
		return nil, err
	}
	t := &complexType{name: n.attr("name")}
	if named == (t.name == "") {
		return nil, fmt.Errorf("%s: a global xs:complexType needs a name and a local one has none", n.at)
	}
	switch m := n.attr("mixed"); m {
	case "", "false", "0":
	case "true", "1":
		t.mixed = true
	default:
		return nil, fmt.Errorf("%s: mixed=%q is not a boolean", n.at, m)
	}
	for _, c := range n.children {
		if c.name.Space != xsdNS {
			return nil, fmt.Errorf("%s: unexpected element %s in xs:complexType", c.at, c.name.Local)
		}
		switch c.name.Local {
		case "annotation":
		case "sequence", "choice":
			if t.content != nil {
				return nil, fmt.Errorf("%s: xs:complexType has more than one content model", c.at)
			}
			if len(t.attributes) > 0 {
				return nil, fmt.Errorf("%s: the content model must come before the attributes", c.at)
			}
			p, err := l.group(c)
			if err != nil {
				return nil, err
			}
			t.content = p
		case "attribute":
			a, err := l.attribute(c)
			if err != nil {
				return nil, err
			}
			if slices.ContainsFunc(t.attributes, func(b attribute) bool { return b.name == a.name }) {
				return nil, fmt.Errorf("%s: attribute %s is declared twice", c.at, a.name)
			}
			t.attributes = append(t.attributes, *a)
		default:
			return nil, unsupported(c)
		}
	}
	// Attributes are stored by value: point the pending type references at
	// the stored copies.
	for i := range t.attributes {
		if t.attributes[i].typeRef != (qname{}) {
			l.typedAttr = append(l.typedAttr, &t.attributes[i])
		}
	}
	return t, nil
}

// group reads a sequence or a choice.
func (l *loader) group(n *node) (*particle, error) {
	if err := n.onlyAttrs("minOccurs", "maxOccurs"); err != nil {
		return nil, err
	}
	p := &particle{kind: n.name.Local}
	var err error
	if p.min, p.max, err = occurs(n); err != nil {
		return nil, err
	}
	for _, c := range n.children {
		if c.name.Space != xsdNS {
			return nil, fmt.Errorf("%s: unexpected element %s in xs:%s", c.at, c.name.Local, p.kind)
		}
		switch c.name.Local {
		case "annotation":
		case "sequence", "choice":
			sub, err := l.group(c)
			if err != nil {
				return nil, err
			}
			p.children = append(p.children, sub)
		case "element":
			sub := &particle{kind: "element"}
			if sub.min, sub.max, err = occurs(c); err != nil {
				return nil, err
			}
			if ref := c.attr("ref"); ref != "" {
				if err := c.onlyAttrs("ref", "minOccurs", "maxOccurs"); err != nil {
					return nil, err
				}
				if len(c.children) > 0 {
					return nil, fmt.Errorf("%s: an element reference has no content", c.at)
				}
				if sub.ref, err = l.qname(c, ref); err != nil {
					return nil, err
				}
				l.elemRefs = append(l.elemRefs, sub)
			} else if sub.element, err = l.element(c, false); err != nil {
				return nil, err
			}
			p.children = append(p.children, sub)
		default:
			return nil, unsupported(c)
		}
	}
	return p, nil
}

func occurs(n *node) (lo, hi int, err error) {
	lo, hi = 1, 1
	if v := n.attr("minOccurs"); v != "" {
		if lo, err = strconv.Atoi(v); err != nil || lo < 0 || lo > maxExpansion {
			return 0, 0, fmt.Errorf("%s: minOccurs=%q: want a number from 0 to %d", n.at, v, maxExpansion)
		}
	}
	if v := n.attr("maxOccurs"); v == "unbounded" {
		hi = unbounded
	} else if v != "" {
		if hi, err = strconv.Atoi(v); err != nil || hi < 0 || hi > maxExpansion {
			return 0, 0, fmt.Errorf("%s: maxOccurs=%q: want a number from 0 to %d or unbounded", n.at, v, maxExpansion)
		}
	}
	if hi != unbounded && hi < lo {
		return 0, 0, fmt.Errorf("%s: maxOccurs %d is below minOccurs %d", n.at, hi, lo)
	}
	return lo, hi, nil
}

func (l *loader) attribute(n *node) (*attribute, error) {
	if err := n.onlyAttrs("name", "type", "use"); err != nil {
		return nil, err
	}
	a := &attribute{name: n.attr("name")}
	if a.name == "" {
		return nil, fmt.Errorf("%s: xs:attribute without a name (ref is not supported)", n.at)
	}
	switch u := n.attr("use"); u {
	case "", "optional":
	case "required":
		a.required = true
	default:
		return nil, fmt.Errorf("%s: attribute %s: use=%q is not supported", n.at, a.name, u)
	}
	for _, c := range n.children {
		switch {
		case c.name.Space == xsdNS && c.name.Local == "annotation":
		case c.name.Space == xsdNS && c.name.Local == "simpleType":
			if a.simple != nil {
				return nil, fmt.Errorf("%s: attribute %s has more than one type", c.at, a.name)
			}
			t, err := l.simpleType(c, false)
			if err != nil {
				return nil, err
			}
			a.simple = t
		default:
			return nil, unsupported(c)
		}
	}
	switch tv := n.attr("type"); {
	case tv != "" && a.simple != nil:
		return nil, fmt.Errorf("%s: attribute %s has more than one type", n.at, a.name)
	case tv != "":
		q, err := l.qname(n, tv)
		if err != nil {
			return nil, err
		}
		a.typeRef = q
	case a.simple == nil:
		a.simple = stringType // xs:anySimpleType accepts any text, as xs:string does
	}
	return a, nil
}

func (l *loader) simpleType(n *node, named bool) (*simpleType, error) {
	if err := n.onlyAttrs("name"); err != nil {
		return nil, err
	}
	t := &simpleType{name: n.attr("name")}
	if named == (t.name == "") {
		return nil, fmt.Errorf("%s: a global xs:simpleType needs a name and a local one has none", n.at)
	}
	var restriction *node
	for _, c := range n.children {
		switch {
		case c.name.Space == xsdNS && c.name.Local == "annotation":
		case c.name.Space == xsdNS && c.name.Local == "restriction" && restriction == nil:
			restriction = c
		default:
			return nil, unsupported(c)
		}
	}
	if restriction == nil {
		return nil, fmt.Errorf("%s: xs:simpleType without xs:restriction", n.at)
	}
	if err := restriction.onlyAttrs("base"); err != nil {
		return nil, err
	}
	base := restriction.attr("base")
	if base == "" {
		return nil, fmt.Errorf("%s: xs:restriction without a base", restriction.at)
	}
	q, err := l.qname(restriction, base)
	if err != nil {
		return nil, err
	}
	t.baseRef = q
	l.simpleRef = append(l.simpleRef, t)
	var patterns []string
	for _, f := range restriction.children {
		if f.name.Space != xsdNS {
			return nil, fmt.Errorf("%s: unexpected element %s in xs:restriction", f.at, f.name.Local)
		}
		switch f.name.Local {
		case "annotation":
		case "pattern":
			if err := f.onlyAttrs("value"); err != nil {
				return nil, err
			}
			patterns = append(patterns, f.attr("value"))
		case "enumeration":
			if err := f.onlyAttrs("value"); err != nil {
				return nil, err
			}
			t.enum = append(t.enum, f.attr("value"))
		default:
			return nil, unsupported(f)
		}
	}
	// Patterns of one derivation step are alternatives; each step's must hold.
	if len(patterns) > 0 {
		var parts []string
		for _, p := range patterns {
			g, err := translateRegexp(p)
			if err != nil {
				return nil, fmt.Errorf("%s: pattern %q: %w", restriction.at, p, err)
			}
			parts = append(parts, "(?:"+g+")")
		}
		re, err := regexp.Compile("^(?:" + strings.Join(parts, "|") + ")$")
		if err != nil {
			return nil, fmt.Errorf("%s: pattern %q: %w", restriction.at, strings.Join(patterns, " | "), err)
		}
		t.patterns = append(t.patterns, re)
	}
	return t, nil
}

// translateRegexp turns an XML Schema regular expression into Go syntax.
// XML Schema has no anchors (^ and $ are ordinary characters outside a
// class), its \d, \s and \w have their own meanings, it knows fewer escapes
// (\$ is an error), and it has constructs Go lacks, which are refused rather
// than misread.
func translateRegexp(x string) (string, error) {
	var b strings.Builder
	inClass := false
	rs := []rune(x)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r == '\\':
			if i+1 == len(rs) {
				return "", errors.New("ends with a lone backslash")
			}
			i++
			e := rs[i]
			switch {
			case strings.ContainsRune(`nrt\|.-^?*+{}()[]`, e):
				b.WriteRune('\\')
				b.WriteRune(e)
			case e == 'd':
				b.WriteString(`\p{Nd}`)
			case e == 'D':
				b.WriteString(`\P{Nd}`)
			case e == 's' && inClass:
				b.WriteString(` \t\n\r`)
			case e == 's':
				b.WriteString(`[ \t\n\r]`)
			case e == 'S' && !inClass:
				b.WriteString(`[^ \t\n\r]`)
			case e == 'w' && !inClass:
				b.WriteString(`[^\p{P}\p{Z}\p{C}]`)
			case e == 'W' && !inClass:
				b.WriteString(`[\p{P}\p{Z}\p{C}]`)
			case e == 'p' || e == 'P':
				if i+1 < len(rs) && rs[i+1] == '{' && strings.HasPrefix(string(rs[i+2:]), "Is") {
					return "", errors.New(`block escapes (\p{Is...}) are not supported`)
				}
				b.WriteRune('\\')
				b.WriteRune(e)
			case strings.ContainsRune("iIcC", e):
				return "", fmt.Errorf(`\%c (XML name characters) is not supported`, e)
			case strings.ContainsRune("SwW", e):
				return "", fmt.Errorf(`\%c inside a character class is not supported`, e)
			default:
				return "", fmt.Errorf(`\%c is not an escape in XML Schema regular expressions`, e)
			}
		case inClass:
			if r == '-' && i+1 < len(rs) && rs[i+1] == '[' {
				return "", errors.New("character class subtraction is not supported")
			}
			if r == '[' {
				b.WriteString(`\[`)
				continue
			}
			if r == ']' {
				inClass = false
			}
			b.WriteRune(r)
		case r == '[':
			inClass = true
			b.WriteRune(r)
			if i+1 < len(rs) && rs[i+1] == '^' {
				b.WriteRune('^')
				i++
			}
		case r == '^' || r == '$':
			b.WriteRune('\\')
			b.WriteRune(r)
		case r == '.':
			b.WriteString(`[^\n\r]`)
		default:
			b.WriteRune(r)
		}
	}
	if inClass {
		return "", errors.New("unterminated character class")
	}
	return b.String(), nil
}

func unsupported(n *node) error {
	return fmt.Errorf("%s: xs:%s is not supported by this validator", n.at, n.name.Local)
}
