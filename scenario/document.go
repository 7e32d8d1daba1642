package scenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

// Document is a parsed file: its content as plain data (map[string]any,
// []any, string, json.Number, bool, nil) and the YAML node tree that maps
// every field path back to its line and column. YAML is read with YAML 1.2
// rules (as the agent scenario format's own tools read it); a file that is
// valid JSON is read by JSON's rules, with the same positions.
type Document struct {
	// File is the file's name as given to the loader.
	File string
	// Value is the document's content as plain data.
	Value any
	root  *yaml.Node
	// lines are the positions (line, column pairs) of the items of the
	// long sequences of scalars whose item nodes were let go (see
	// compactSequences).
	lines map[*yaml.Node][]int32
}

// Limits bound what the parser accepts, so that hostile input cannot
// exhaust memory.
type Limits struct {
	// MaxBytes caps the file size (default 8 MiB, and 64 MiB for a matrix
	// file, the cap on every file read from outside: a one-axis matrix of
	// 10^6 values is about 48 MB). Parsing holds about 200 bytes a value
	// written in the file beside the file itself, so a matrix file at the
	// cap written to be costly (16 million one-character values) takes
	// about 3 GB; the 10^6-value matrix about 300 MB.
	MaxBytes int
	// MaxNodes caps the number of values after aliases are expanded
	// (default 2,000,000), or the values written in the file when they are
	// more (a large matrix's). Aliases may also expand a document to at
	// most 100 times the number of values written in it (plus 10,000).
	MaxNodes int
}

func (l Limits) withDefaults() Limits {
	if l.MaxBytes <= 0 {
		l.MaxBytes = 8 << 20
	}
	if l.MaxNodes <= 0 {
		l.MaxNodes = 2_000_000
	}
	return l
}

// forKind returns the limits of one file of kind k (KindUnknown: told by
// its name): a matrix's default size cap is 64 MiB.
func (l Limits) forKind(name string, k Kind) Limits {
	if k == KindUnknown {
		k = detectKind(name, nil)
	}
	if k == KindMatrix && l.MaxBytes <= 0 {
		l.MaxBytes = 64 << 20
	}
	return l.withDefaults()
}

// ParseDocument parses YAML or JSON bytes into a Document. Problems in the
// text (syntax, several documents, duplicate keys, alias bombs, YAML 1.1
// surprises, unquoted {{placeholders}}) come back as diagnostics; the
// Document is nil when nothing usable was parsed.
func ParseDocument(file string, data []byte, lim Limits) (*Document, Diagnostics) {
	lim = lim.withDefaults()
	if len(data) > lim.MaxBytes {
		return nil, Diagnostics{sizeDiagnostic(file, int64(len(data)), lim.MaxBytes)}
	}
	var doc yaml.Node
	var diags Diagnostics
	if looksLikeJSON(data) {
		root, err := jsonNodes(data)
		if err != nil {
			return nil, Diagnostics{syntaxDiagnostic(file, data, err)}
		}
		doc = *root
	} else {
		dec := yaml.NewDecoder(bytes.NewReader(data))
		if err := dec.Decode(&doc); err != nil {
			if errors.Is(err, io.EOF) {
				return nil, Diagnostics{{File: file, Line: 1, Column: 1, Severity: Error, Code: "empty", Message: "file is empty"}}
			}
			return nil, Diagnostics{syntaxDiagnostic(file, data, err)}
		}
		var second yaml.Node
		if err := dec.Decode(&second); err == nil {
			line := second.Line
			diags = append(diags, Diagnostic{File: file, Line: max(line, 1), Column: 1, Severity: Error, Code: "multi-document",
				Message: "file holds several YAML documents; put each in its own file"})
		} else if !errors.Is(err, io.EOF) {
			diags = append(diags, syntaxDiagnostic(file, data, err))
		}
	}
	root := &doc
	if root.Kind == yaml.DocumentNode {
		if len(root.Content) == 0 {
			return nil, append(diags, Diagnostic{File: file, Line: 1, Column: 1, Severity: Error, Code: "empty", Message: "file is empty"})
		}
		root = root.Content[0]
	}
	// Aliases may repeat values, but not blow a small text up into a huge
	// value: at most 100 values for each one written, and MaxNodes in all.
	// The values written in the file are parsed already: the budget bounds
	// what aliases add.
	written := sourceNodes(root)
	c := converter{file: file, budget: min(max(lim.MaxNodes, written), 10_000+100*written)}
	v := c.convert(root, 0)
	diags = append(diags, c.diags...)
	if c.fatal {
		return nil, diags
	}
	d := &Document{File: file, Value: v, root: root}
	d.compactSequences(root, 0)
	return d, diags
}

// compactItems is how long a sequence of plain scalars must be for
// compactSequences to keep its items' positions instead of their nodes.
const compactItems = 1024

// compactSequences replaces the item nodes of every sequence of at least
// compactItems plain scalars (no anchor, no alias) by their positions,
// once the document's value is built: a yaml.Node is about 150 bytes and
// its position 8, which at a matrix of 10^6 values is most of what the
// document holds. Locate still finds every item's line and column.
func (d *Document) compactSequences(n *yaml.Node, depth int) {
	if n == nil || depth > maxDepth || n.Kind == yaml.AliasNode {
		return
	}
	if n.Kind == yaml.SequenceNode && len(n.Content) >= compactItems {
		plain := true
		for _, e := range n.Content {
			if e.Kind != yaml.ScalarNode || e.Anchor != "" {
				plain = false
				break
			}
		}
		if plain {
			pos := make([]int32, 0, 2*len(n.Content))
			for _, e := range n.Content {
				pos = append(pos, int32(min(e.Line, math.MaxInt32)), int32(min(e.Column, math.MaxInt32)))
			}
			if d.lines == nil {
				d.lines = map[*yaml.Node][]int32{}
			}
			d.lines[n] = pos
			n.Content = nil
			return
		}
	}
	for _, e := range n.Content {
		d.compactSequences(e, depth+1)
	}
}

func sizeDiagnostic(file string, size int64, limit int) Diagnostic {
	return Diagnostic{File: file, Line: 1, Column: 1, Severity: Error, Code: "size",
		Message: fmt.Sprintf("file is %d bytes; the limit is %d bytes", size, limit)}
}

var yamlLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`line (\d+)`) })

// syntaxDiagnostic positions a parser error. YAML parsers report the line
// where they noticed the problem, which can be a line after the mistake, so
// the message says "near".
func syntaxDiagnostic(file string, data []byte, err error) Diagnostic {
	d := Diagnostic{File: file, Line: 1, Column: 1, Severity: Error, Code: "syntax"}
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if m := yamlLine().FindStringSubmatch(msg); m != nil {
		d.Line, _ = strconv.Atoi(m[1])
		msg = strings.TrimPrefix(msg, m[0]+": ")
		if line := faultLine(data, d.Line, msg); line != d.Line {
			// The parser named the line of the enclosing block.
			d.Line, d.Column = line, firstColumn(data, line)
		} else {
			msg = "near line " + m[1] + ": " + msg
		}
	} else if m := unknownAnchor().FindStringSubmatch(msg); m != nil {
		if i := bytes.Index(data, []byte("*"+m[1])); i >= 0 {
			d.Line, d.Column = offsetPos(data, i+1)
		}
	}
	if trimmed := bytes.TrimSpace(data); len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[') {
		// For JSON, encoding/json finds the exact offset.
		var v any
		if jerr := json.Unmarshal(data, &v); jerr != nil {
			var se *json.SyntaxError
			if errors.As(jerr, &se) {
				d.Line, d.Column = offsetPos(data, int(se.Offset))
				msg = se.Error()
				if strings.Contains(msg, "after object key:value pair") || strings.Contains(msg, "after array element") {
					msg += "; is a comma missing before it?"
				}
			}
		}
	}
	d.Message = "syntax error: " + msg
	return d
}

var unknownAnchor = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^unknown anchor '([^']*)' referenced`) })

// firstColumn returns the column of the first character of a line that is
// not a space or a tab.
func firstColumn(data []byte, line int) int {
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			return 1
		}
		data = data[i+1:]
	}
	for i, c := range data {
		if c != ' ' && c != '\t' {
			return i + 1
		}
	}
	return 1
}

// faultLine finds the line a YAML syntax error is on. A YAML parser names
// the line where the enclosing construct began (a list started on line 3,
// the bad indentation is on line 5); the first prefix of whole lines, from
// that line on, that fails with the same message ends on the line at fault.
// It returns reported when no prefix within 500 lines does, and for texts
// over 1 MiB.
func faultLine(data []byte, reported int, msg string) int {
	if len(data) > 1<<20 {
		return reported // each try parses a prefix again; not worth it for huge files
	}
	var ends []int // ends[i] is the offset after line i+1
	for i, c := range data {
		if c == '\n' {
			ends = append(ends, i+1)
		}
	}
	if len(data) > 0 && data[len(data)-1] != '\n' {
		ends = append(ends, len(data))
	}
	fails := func(line int) bool {
		dec := yaml.NewDecoder(bytes.NewReader(data[:ends[line-1]]))
		for {
			var n yaml.Node
			err := dec.Decode(&n)
			if err == nil {
				continue
			}
			if errors.Is(err, io.EOF) {
				return false
			}
			got := strings.TrimPrefix(err.Error(), "yaml: ")
			if m := yamlLine().FindStringSubmatch(got); m != nil {
				got = strings.TrimPrefix(got, m[0]+": ")
			}
			return got == msg
		}
	}
	lo, hi := max(reported, 1), min(len(ends), reported+500)
	if lo > hi || !fails(hi) {
		return reported
	}
	for lo < hi { // the first failing prefix; failing persists once the fault is in
		mid := (lo + hi) / 2
		if fails(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

func offsetPos(data []byte, off int) (line, col int) {
	off = min(max(off, 0), len(data))
	before := data[:off]
	line = bytes.Count(before, []byte("\n")) + 1
	col = off - (bytes.LastIndexByte(before, '\n') + 1)
	return line, max(col, 1)
}

// yaml11 matches plain scalars that YAML 1.1 tools (and many editors and
// libraries) read as booleans or numbers while YAML 1.2 reads them as text.
var yaml11 = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF|[-+]?0[0-7]+|[-+]?[0-9][0-9_]*_[0-9_]*|[-+]?[0-9]+(?::[0-5]?[0-9])+)$`)
})

var leadingZero = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[-+]?0[0-9]+$`) })

// isYAML11 reports whether a plain scalar means something else to YAML 1.1
// tools; the first-byte test spares the regexp for almost every scalar.
func isYAML11(s string) bool {
	return s != "" && strings.IndexByte("yYnNoO0123456789+-", s[0]) >= 0 && yaml11().MatchString(s)
}

// maxDepth bounds how deeply values may nest: no scenario needs more, and
// the walks over a document recurse.
const maxDepth = 500

type converter struct {
	file   string
	budget int
	diags  Diagnostics
	fatal  bool
	// path is where the converter is, a stack kept in place so that
	// descending costs no allocation; diagnostics copy it.
	path Path
	// open holds the anchored nodes being converted, to catch an alias to
	// a node that contains it (a: &a {b: *a}, a: &a {<<: *a}).
	open map[*yaml.Node]bool
}

func (c *converter) add(n *yaml.Node, sev Severity, code, msg string) {
	c.diags = append(c.diags, Diagnostic{File: c.file, Line: n.Line, Column: n.Column, Path: c.path.String(), Severity: sev, Code: code, Message: msg})
}

// addAt is add with one more path element, for a finding about a key.
func (c *converter) addAt(n *yaml.Node, key string, sev Severity, code, msg string) {
	c.path = append(c.path, PathElem{Key: key})
	c.add(n, sev, code, msg)
	c.path = c.path[:len(c.path)-1]
}

// enter marks an anchored collection as being converted; it reports false
// (and a finding) when the node is already open: an alias inside its own
// anchor.
func (c *converter) enter(n, at *yaml.Node) bool {
	if n.Anchor == "" {
		return true
	}
	if c.open[n] {
		c.fatal = true
		c.add(at, Error, "aliases", fmt.Sprintf("alias *%s refers to a value that contains it", n.Anchor))
		return false
	}
	if c.open == nil {
		c.open = map[*yaml.Node]bool{}
	}
	c.open[n] = true
	return true
}

func (c *converter) leave(n *yaml.Node) {
	if n.Anchor != "" {
		delete(c.open, n)
	}
}

// sourceNodes counts the nodes of the text, not following aliases.
func sourceNodes(n *yaml.Node) int {
	count := 1
	for _, e := range n.Content {
		count += sourceNodes(e)
	}
	return count
}

func (c *converter) convert(n *yaml.Node, depth int) any {
	if c.fatal {
		return nil
	}
	c.budget--
	if c.budget < 0 {
		c.fatal = true
		c.add(n, Error, "aliases", "aliases expand the document to too many values (an alias bomb?); the limit guards memory")
		return nil
	}
	if depth > maxDepth {
		c.fatal = true
		// The path so far is as deep as the document: name its start only.
		full := c.path
		c.path = c.path[:min(len(c.path), 8)]
		c.add(n, Error, "depth", fmt.Sprintf("document is nested more than %d levels deep (the path names its first levels)", maxDepth))
		c.path = full
		return nil
	}
	switch n.Kind {
	case yaml.AliasNode:
		if n.Alias == nil {
			return nil
		}
		if c.open[n.Alias] {
			c.fatal = true
			c.add(n, Error, "aliases", fmt.Sprintf("alias *%s refers to a value that contains it", n.Value))
			return nil
		}
		return c.convert(n.Alias, depth+1)
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil
		}
		return c.convert(n.Content[0], depth+1)
	case yaml.SequenceNode:
		if !c.enter(n, n) {
			return nil
		}
		defer c.leave(n)
		out := make([]any, len(n.Content))
		for i, e := range n.Content {
			if e.Kind == yaml.ScalarNode && e.Tag == "!!str" && (e.Style != 0 || !isYAML11(e.Value)) && c.budget > 0 && depth < maxDepth && !c.fatal {
				// Text that scalar would return as it is, with no
				// finding (a long list of values is mostly such), and
				// within the budget and depth: no path to push.
				c.budget--
				out[i] = e.Value
				continue
			}
			c.path = append(c.path, PathElem{Index: i, IsIndex: true})
			out[i] = c.convert(e, depth+1)
			c.path = c.path[:len(c.path)-1]
		}
		return out
	case yaml.MappingNode:
		if !c.enter(n, n) {
			return nil
		}
		defer c.leave(n)
		out := make(map[string]any, len(n.Content)/2)
		seen := make(map[string]*yaml.Node, len(n.Content)/2)
		c.mapping(n, depth, out, seen, false)
		return out
	default:
		return c.scalar(n)
	}
}

// mapping fills out from a mapping node, resolving `<<` merge keys; keys
// written in the mapping itself win over merged ones.
func (c *converter) mapping(n *yaml.Node, depth int, out map[string]any, seen map[string]*yaml.Node, merged bool) {
	if depth > maxDepth || c.fatal {
		return
	}
	var merges []*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind == yaml.ScalarNode && k.Tag == "!!merge" {
			merges = append(merges, v)
			continue
		}
		if k.Kind != yaml.ScalarNode {
			if k.Kind == yaml.MappingNode {
				c.add(k, Error, "placeholder", "a mapping is used as a key: an unquoted {{placeholder}}? Quote it: \"{{name}}\"")
			} else {
				c.add(k, Error, "key", "keys must be text")
			}
			continue
		}
		key := k.Value
		if !merged && k.Style == 0 && isYAML11(key) {
			c.addAt(k, key, Warning, "yaml11", fmt.Sprintf("key %q is read as text here but as a boolean or number by YAML 1.1 tools; quote it", key))
		}
		if prev, dup := seen[key]; dup {
			if !merged {
				c.addAt(k, key, Error, "duplicate-key", fmt.Sprintf("key %q is already set at line %d", key, prev.Line))
			}
			continue
		}
		seen[key] = k
		c.path = append(c.path, PathElem{Key: key})
		out[key] = c.convert(v, depth+1)
		c.path = c.path[:len(c.path)-1]
	}
	for _, written := range merges {
		m := written
		for hops := 0; m.Kind == yaml.AliasNode && m.Alias != nil && hops < 100; hops++ {
			m = m.Alias
		}
		srcs := []*yaml.Node{written}
		if m.Kind == yaml.SequenceNode {
			srcs = m.Content
		}
		for _, src := range srcs {
			at := src
			for hops := 0; src.Kind == yaml.AliasNode && src.Alias != nil && hops < 100; hops++ {
				src = src.Alias
			}
			if src.Kind != yaml.MappingNode {
				c.add(at, Error, "merge", "a << merge needs a mapping")
				continue
			}
			if !c.enter(src, at) {
				return
			}
			c.budget -= len(src.Content)
			if c.budget < 0 {
				c.fatal = true
				c.add(at, Error, "aliases", "aliases expand the document to too many values (an alias bomb?); the limit guards memory")
				return
			}
			c.mapping(src, depth+1, out, seen, true)
			c.leave(src)
		}
	}
}

func (c *converter) scalar(n *yaml.Node) any {
	tag := n.ShortTag()
	if n.Style == 0 && isYAML11(n.Value) {
		switch tag {
		case "!!str":
			c.add(n, Warning, "yaml11", fmt.Sprintf("%q is text here but a boolean or number to YAML 1.1 tools; quote it to make the intent plain", n.Value))
		case "!!int", "!!float":
			c.add(n, Warning, "yaml11", fmt.Sprintf("%s is read as a number whose value YAML tools disagree on (octal? digit groups?); write it plainly, or quote it to make it text", n.Value))
		}
	}
	switch tag {
	case "!!null":
		return nil
	case "!!bool":
		return strings.EqualFold(n.Value, "true")
	case "!!int":
		s := strings.ReplaceAll(n.Value, "_", "")
		base := 0
		if leadingZero().MatchString(s) {
			base = 10 // YAML 1.2: 0755 is seven hundred and fifty-five; 0o755 is octal
		}
		if i, err := strconv.ParseInt(s, base, 64); err == nil {
			return json.Number(strconv.FormatInt(i, 10))
		}
		if u, err := strconv.ParseUint(s, 0, 64); err == nil {
			return json.Number(strconv.FormatUint(u, 10))
		}
		if _, err := strconv.ParseFloat(s, 64); err == nil && !strings.ContainsAny(s, "xXoObB") {
			return json.Number(s)
		}
		c.add(n, Error, "number", fmt.Sprintf("number %q is out of range", n.Value))
		return nil
	case "!!float":
		f, err := strconv.ParseFloat(strings.ReplaceAll(n.Value, "_", ""), 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			c.add(n, Error, "number", fmt.Sprintf("%q is not a finite number", n.Value))
			return nil
		}
		return json.Number(strconv.FormatFloat(f, 'g', -1, 64))
	default:
		return n.Value
	}
}

// Locate returns the line and column of the value at path. When the path
// does not exist it returns the position of the deepest part that does, and
// found is false.
func (d *Document) Locate(p Path) (line, col int, found bool) {
	n, _, ok := d.walk(p)
	return n.Line, n.Column, ok
}

// LocateKey returns the position of the mapping key that ends path, which is
// the better anchor for "unknown field"; for an index it is the value's.
func (d *Document) LocateKey(p Path) (line, col int, found bool) {
	n, k, ok := d.walk(p)
	if ok && k != nil {
		return k.Line, k.Column, true
	}
	return n.Line, n.Column, ok
}

func (d *Document) walk(p Path) (val, key *yaml.Node, ok bool) {
	n := d.root
	if n == nil {
		return &yaml.Node{Line: 1, Column: 1}, nil, false
	}
	for _, e := range p {
		for hops := 0; n.Kind == yaml.AliasNode && n.Alias != nil && hops < 100; hops++ {
			n = n.Alias
		}
		switch {
		case n.Kind == yaml.SequenceNode:
			i := e.Index
			if !e.IsIndex {
				var isNum bool
				i, isNum = atoi(e.Key)
				if !isNum {
					return n, nil, false
				}
			}
			if pos, ok := d.lines[n]; ok {
				if i < 0 || 2*i+1 >= len(pos) {
					return n, nil, false
				}
				// A scalar item: nothing below it to walk into.
				key, n = nil, &yaml.Node{Kind: yaml.ScalarNode, Line: int(pos[2*i]), Column: int(pos[2*i+1])}
				continue
			}
			if i < 0 || i >= len(n.Content) {
				return n, nil, false
			}
			key, n = nil, n.Content[i]
		case n.Kind == yaml.MappingNode:
			name := e.Key
			if e.IsIndex {
				name = strconv.Itoa(e.Index)
			}
			k, v := findKey(n, name, 0)
			if v == nil {
				return n, nil, false
			}
			key, n = k, v
		default:
			return n, nil, false
		}
	}
	return n, key, true
}

func findKey(m *yaml.Node, name string, depth int) (k, v *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Kind == yaml.ScalarNode && m.Content[i].Value == name && m.Content[i].Tag != "!!merge" {
			return m.Content[i], m.Content[i+1]
		}
	}
	if depth > 20 {
		return nil, nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Tag != "!!merge" {
			continue
		}
		src := m.Content[i+1]
		for hops := 0; src.Kind == yaml.AliasNode && src.Alias != nil && hops < 100; hops++ {
			src = src.Alias
		}
		srcs := []*yaml.Node{src}
		if src.Kind == yaml.SequenceNode {
			srcs = src.Content
		}
		for _, s := range srcs {
			for hops := 0; s.Kind == yaml.AliasNode && s.Alias != nil && hops < 100; hops++ {
				s = s.Alias
			}
			if s.Kind == yaml.MappingNode {
				if k, v := findKey(s, name, depth+1); v != nil {
					return k, v
				}
			}
		}
	}
	return nil, nil
}

// PathOf turns JSON-pointer-like tokens into a Path, reading the document's
// data to tell sequence indexes from mapping keys.
func (d *Document) pathOf(tokens []string) Path {
	var p Path
	cur := d.Value
	for _, t := range tokens {
		switch v := cur.(type) {
		case []any:
			if i, ok := atoi(t); ok && i < len(v) {
				p = p.Index(i)
				cur = v[i]
				continue
			}
			p = p.Key(t)
			cur = nil
		case map[string]any:
			p = p.Key(t)
			cur = v[t]
		default:
			p = p.Key(t)
			cur = nil
		}
	}
	return p
}
