// Package yamlfast parses the YAML that scenario files are written in
// several times faster than go.yaml.in/yaml/v3, into exactly the node tree
// yaml.v3's Decoder produces for the same text: block mappings and
// sequences, flow collections (on one line or several, as formatters write
// long ones), plain and quoted scalars (multi-line ones folded; every
// escape), literal and folded block scalars, comments, a leading "---",
// CRLF line ends. On anything else (tags, anchors, aliases, merge keys,
// explicit indentation indicators, tabs, lone carriage returns,
// directives, several documents, complex keys, timestamps, syntax errors,
// ...) Parse reports that it did not handle the text, and the caller
// parses it with yaml.v3, which also produces the error messages. Comments
// are skipped: the nodes' comment fields stay empty.
//
// The fuzz test holds the promise: wherever Parse returns a tree, it
// equals yaml.v3's on every field but the comments, and yaml.v3 reads
// exactly one document from the text.
package yamlfast

import (
	"encoding/binary"
	"math/bits"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// maxDepth bounds nesting; deeper texts go to yaml.v3 (which has its own
// limit and message).
const maxDepth = 100

// maxKey is the longest simple key yaml.v3 accepts is 1024 characters; a
// key of more bytes than this goes to yaml.v3.
const maxKey = 1000

const (
	tagStr   = "!!str"
	tagNull  = "!!null"
	tagBool  = "!!bool"
	tagInt   = "!!int"
	tagFloat = "!!float"
	tagMap   = "!!map"
	tagSeq   = "!!seq"
)

// bail unwinds the parser when the text is outside the subset.
type bail struct{}

// Parse returns the DocumentNode yaml.v3's Decoder would return for data,
// and true; or nil and false when the text is outside the subset this
// package handles (the caller then parses it with yaml.v3).
func Parse(data []byte) (doc *yaml.Node, ok bool) {
	lines, crlf, ascii, ok := plainText(data)
	if !ok {
		return nil, false
	}
	src := string(data)
	if crlf {
		// yaml.v3 reads "\r\n" as one line break and turns it into "\n"
		// in values; '\r' never comes before a token on its line.
		src = strings.ReplaceAll(src, "\r\n", "\n")
	}
	// Most lines hold one or two nodes: one block for a line each, more
	// as needed.
	p := &parser{src: src, line: 1, ascii: ascii, chunkSize: min(lines+8, 1<<16)}
	p.chunk = make([]yaml.Node, p.chunkSize)
	// A collection's children wait on the stack until it ends; a long
	// sequence has one a line.
	p.stack = make([]*yaml.Node, 0, min(lines+8, 1<<16))
	defer func() {
		if r := recover(); r != nil {
			if _, isBail := r.(bail); !isBail {
				panic(r)
			}
			doc, ok = nil, false
		}
	}()
	return p.document(), true
}

// plainText reports whether data holds only the characters the parser
// handles the way yaml.v3 does: printable text, '\n' and "\r\n" (crlf
// says whether there is one). Tabs, lone carriage returns, byte order
// marks, the other Unicode line breaks and characters yaml.v3 rejects all
// go to yaml.v3. It also counts the lines, and reports whether the text
// is all ASCII (then columns are byte offsets).
func plainText(data []byte) (lines int, crlf, ascii, ok bool) {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	ascii = true
	for i := 0; i < len(data); {
		if i+8 <= len(data) {
			// Eight ASCII bytes at once, each printable or '\n'. With no
			// high bit set no sum below carries into the next byte, so
			// each mask is exact: bytes below 0x20 (b+0x60 < 0x80), bytes
			// equal to 0x7f (b+1 = 0x80) and line feeds (b^0x0a = 0).
			w := binary.LittleEndian.Uint64(data[i:])
			if w&highs == 0 {
				control := ^(w + 0x60*ones) & highs
				del := (w + ones) & highs
				lf := ^((w ^ 0x0a*ones) + 0x7f*ones) & highs
				if control&^lf|del == 0 {
					lines += bits.OnesCount64(lf)
					i += 8
					continue
				}
			}
		}
		c := data[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '\n':
				lines++
			case c == '\r' && i+1 < len(data) && data[i+1] == '\n':
				crlf = true
			case c < 0x20 || c == 0x7f:
				return 0, false, false, false
			}
			i++
			continue
		}
		ascii = false
		r, size := utf8.DecodeRune(data[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			return 0, false, false, false
		case r < 0xa0, r == 0x2028, r == 0x2029, r == 0xfeff,
			r >= 0xd800 && r < 0xe000, r == 0xfffe, r == 0xffff:
			return 0, false, false, false
		}
		i += size
	}
	return lines, crlf, ascii, true
}

type parser struct {
	src string
	pos int
	// line is the 1-based line of pos; lineStart the offset it begins at.
	line      int
	lineStart int
	// indent is the indentation of the content line pos is on, after
	// next; eof is set when no content line is left.
	indent int
	eof    bool
	depth  int
	// started is set once the first content line is read: from then on a
	// document marker ends the parse.
	started bool
	// ascii says the text is all ASCII: a column is then the offset on
	// its line plus one.
	ascii bool
	// chunk hands out nodes from a block, one allocation for many nodes.
	// colLine, colOff and colVal remember col's last answer.
	colLine, colOff, colVal int
	chunk                   []yaml.Node
	chunkSize               int
	// stack holds the children of the collections being parsed, so that
	// each gets a Content of its exact size.
	stack []*yaml.Node
}

func (p *parser) fail() { panic(bail{}) }

func (p *parser) node() *yaml.Node {
	if len(p.chunk) == 0 {
		p.chunkSize = min(max(32, p.chunkSize), 1024)
		p.chunk = make([]yaml.Node, p.chunkSize)
	}
	n := &p.chunk[0]
	p.chunk = p.chunk[1:]
	return n
}

// col is the 1-based column of offset off on the current line, counted in
// characters as yaml.v3 counts them. It counts on from the last offset it
// was asked about on the line, so that a long line costs linear time.
func (p *parser) col(off int) int {
	if p.ascii {
		return off - p.lineStart + 1
	}
	from, c := p.lineStart, 1
	if p.colLine == p.lineStart && p.colOff <= off && p.colOff > 0 {
		from, c = p.colOff, p.colVal
	}
	for i := from; i < off; i++ {
		if p.src[i]&0xc0 != 0x80 {
			c++
		}
	}
	p.colLine, p.colOff, p.colVal = p.lineStart, off, c
	return c
}

func (p *parser) at(off int) byte {
	if off < len(p.src) {
		return p.src[off]
	}
	return 0
}

// blankz reports whether off is a space, a line end or the end of text.
func (p *parser) blankz(off int) bool {
	c := p.at(off)
	return c == ' ' || c == '\n' || c == 0
}

// next moves from the end of a line (after its content) to the first
// character of the next content line, skipping blank and comment lines,
// and sets indent; or sets eof. Document markers and directives at the
// start of a line go to yaml.v3.
func (p *parser) next() {
	for {
		// pos is at '\n' or the end of the text.
		if p.pos >= len(p.src) {
			p.eof, p.indent = true, -1
			return
		}
		p.pos++
		p.line++
		p.lineStart = p.pos
		i := p.pos
		for i < len(p.src) && p.src[i] == ' ' {
			i++
		}
		if i >= len(p.src) {
			p.pos = i
			continue
		}
		switch p.src[i] {
		case '\n':
			p.pos = i
			continue
		case '#':
			p.pos = p.lineEnd(i)
			continue
		}
		if i == p.lineStart && p.started {
			p.checkMarker(i)
		}
		p.pos, p.indent = i, i-p.lineStart
		return
	}
}

// checkMarker bails on a document marker or directive at offset i, the
// start of a line.
func (p *parser) checkMarker(i int) {
	s := p.src[i:]
	if len(s) >= 3 && (s[:3] == "---" || s[:3] == "...") && p.blankz(i+3) {
		p.fail()
	}
	if s[0] == '%' {
		p.fail()
	}
}

func (p *parser) lineEnd(i int) int {
	for i < len(p.src) && p.src[i] != '\n' {
		i++
	}
	return i
}

// endLine checks that only spaces and a comment follow pos on its line,
// then moves to the next content line.
func (p *parser) endLine() {
	i := p.pos
	for i < len(p.src) && p.src[i] == ' ' {
		i++
	}
	if i < len(p.src) && p.src[i] != '\n' {
		if p.src[i] != '#' || i == p.pos {
			p.fail()
		}
		i = p.lineEnd(i)
	}
	p.pos = i
	p.next()
}

func (p *parser) document() *yaml.Node {
	doc := p.node()
	doc.Kind = yaml.DocumentNode
	// Start as if after a line: pos -1 so that next lands on line 1.
	p.pos, p.line = -1, 0
	p.next()
	p.started = true
	if p.eof {
		p.fail() // empty: yaml.v3 says io.EOF
	}
	if p.indent == 0 && p.src[p.pos] == '-' && p.at(p.pos+1) == '-' && p.at(p.pos+2) == '-' && p.blankz(p.pos+3) {
		doc.Line, doc.Column = p.line, 1
		p.pos += 3
		p.endLine()
		if p.eof {
			p.fail()
		}
	} else {
		// yaml.v3 places an implicit document at its first token. A
		// directive or "..." there goes to yaml.v3 (next checks the
		// lines after the first).
		doc.Line, doc.Column = p.line, p.col(p.pos)
		if p.indent == 0 {
			p.checkMarker(p.pos)
		}
	}
	root := p.blockNode(-1)
	if !p.eof {
		p.fail()
	}
	doc.Content = []*yaml.Node{root}
	return doc
}

func (p *parser) enter() {
	p.depth++
	if p.depth > maxDepth {
		p.fail()
	}
}

// blockNode parses the block sequence or mapping that starts at pos, the
// first character of a content line, indented more than parent; below the
// root, also a flow collection or a plain or quoted scalar on its own line.
func (p *parser) blockNode(parent int) *yaml.Node {
	if p.indent <= parent {
		p.fail()
	}
	if p.src[p.pos] == '-' && p.blankz(p.pos+1) {
		return p.sequence(p.indent)
	}
	if parent >= 0 {
		// A value on the line after its key or "-".
		switch p.src[p.pos] {
		case '[', '{':
			n := p.flow()
			p.endLine()
			return n
		case '|', '>':
			p.fail()
		}
		start := p.pos
		if n, isKey := p.scalar(false); !isKey {
			if n.Style == 0 {
				p.continuePlain(n, parent)
			}
			p.endLine()
			return n
		}
		p.pos = start
	}
	return p.mapping(p.indent)
}

// open starts a block collection of kind at column col+1 of the current
// line, one level deeper.
func (p *parser) open(kind yaml.Kind, tag string, col int) *yaml.Node {
	p.enter()
	n := p.node()
	n.Kind, n.Tag = kind, tag
	n.Line, n.Column = p.line, col+1
	return n
}

// sequence parses a block sequence whose first "-" is at pos, in column
// col+1 (col counts from 0, as indentation does).
func (p *parser) sequence(col int) *yaml.Node {
	seq := p.open(yaml.SequenceNode, tagSeq, col)
	defer func() { p.depth-- }()
	mark := len(p.stack)
	for {
		// pos is at "-".
		dashEnd := p.pos + 1
		p.pos = dashEnd
		item := p.entryValue(col, dashEnd, true)
		p.stack = append(p.stack, item)
		if p.eof || p.indent < col {
			break
		}
		if p.indent > col {
			p.fail()
		}
		if !(p.src[p.pos] == '-' && p.blankz(p.pos+1)) {
			break // the end of a sequence indented as its mapping's keys
		}
	}
	seq.Content = p.children(mark)
	return seq
}

// mapping parses a block mapping whose first key is at pos, in column
// col+1.
func (p *parser) mapping(col int) *yaml.Node {
	m := p.open(yaml.MappingNode, tagMap, col)
	defer func() { p.depth-- }()
	mark := len(p.stack)
	for {
		key, isKey := p.scalar(false)
		if !isKey {
			p.fail()
		}
		// pos is at ':'.
		colonEnd := p.pos + 1
		p.pos = colonEnd
		p.stack = append(p.stack, key)
		val := p.entryValue(col, colonEnd, false)
		p.stack = append(p.stack, val)
		if p.eof || p.indent < col {
			break
		}
		if p.indent > col {
			p.fail()
		}
	}
	m.Content = p.children(mark)
	return m
}

// entryValue parses what follows a "-" (inSeq) or a key's ":" ending at
// offset after, in a block collection at indentation col; it ends at the
// next content line.
func (p *parser) entryValue(col, after int, inSeq bool) *yaml.Node {
	i := p.pos
	for i < len(p.src) && p.src[i] == ' ' {
		i++
	}
	if i == p.pos && i < len(p.src) && p.src[i] != '\n' {
		p.fail() // "-x" or "a:b" are not entries
	}
	if i >= len(p.src) || p.src[i] == '\n' || p.src[i] == '#' {
		// The value is on the following lines, or empty.
		line, column := p.line, p.col(after)
		p.endLine()
		if !p.eof && (p.indent > col || !inSeq && p.indent == col && p.src[p.pos] == '-' && p.blankz(p.pos+1)) {
			if p.indent == col {
				return p.sequence(col) // compact: "key:\n- a"
			}
			return p.blockNode(col)
		}
		n := p.node()
		n.Kind, n.Tag = yaml.ScalarNode, tagNull
		n.Line, n.Column = line, column
		return n
	}
	p.pos = i
	switch c := p.src[i]; c {
	case '-':
		if p.blankz(i + 1) {
			if !inSeq {
				p.fail()
			}
			return p.sequence(p.col(i) - 1) // "- - a"
		}
	case '|', '>':
		return p.blockScalar(col)
	case '[', '{':
		n := p.flow()
		p.endLine()
		return n
	}
	start := p.pos
	n, isKey := p.scalar(false)
	if isKey {
		if !inSeq {
			p.fail() // "a: b: c"
		}
		// A mapping in a sequence entry: "- a: 1".
		p.pos = start
		return p.mapping(p.col(start) - 1)
	}
	if n.Style == 0 {
		p.continuePlain(n, col)
	}
	p.endLine()
	return n
}

// continuePlain extends the plain scalar n, which ends where pos is, over
// the lines that continue it: lines indented more than col (the block
// collection it is in), folded as yaml.v3 folds them (a line break is a
// space, blank lines are line breaks). A comment ends it. A continuation
// line that starts with an indicator, or holds ": ", goes to yaml.v3.
func (p *parser) continuePlain(n *yaml.Node, col int) {
	var buf []byte
lines:
	for {
		i := p.pos
		for i < len(p.src) && p.src[i] == ' ' {
			i++
		}
		if i >= len(p.src) || p.src[i] != '\n' {
			break // a comment, or the end of the text
		}
		// The next line that is not blank.
		breaks, ls, sp := 0, i+1, 0
		for {
			sp = spaces(p.src, ls)
			if ls+sp >= len(p.src) {
				break lines
			}
			if p.src[ls+sp] != '\n' {
				break
			}
			breaks++
			ls += sp + 1
		}
		if sp <= col || p.src[ls+sp] == '#' {
			break
		}
		switch p.src[ls+sp] {
		case '-', '?', ':', ',', '[', ']', '{', '}', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
			p.fail()
		}
		if buf == nil {
			buf = append(buf, n.Value...)
		}
		if breaks == 0 {
			buf = append(buf, ' ')
		}
		for range breaks {
			buf = append(buf, '\n')
		}
		p.line += 1 + breaks
		p.lineStart, p.pos = ls, ls+sp
		v, stop := p.words(p.pos, false)
		if stop == ':' {
			p.fail() // "key: value" on a continuation line
		}
		buf = append(buf, v...)
	}
	if buf != nil {
		n.Value = string(buf)
		n.Tag = resolve(n.Value)
	}
}

// scalar reads a one-line plain or quoted scalar at pos. It reports
// whether the scalar is a key: then pos is at its ':'; otherwise pos is
// after the scalar.
func (p *parser) scalar(flow bool) (n *yaml.Node, isKey bool) {
	start := p.pos
	n = p.node()
	n.Kind = yaml.ScalarNode
	n.Line, n.Column = p.line, p.col(start)
	line := p.line
	switch p.src[start] {
	case '"':
		n.Style, n.Tag = yaml.DoubleQuotedStyle, tagStr
		n.Value = p.doubleQuoted()
	case '\'':
		n.Style, n.Tag = yaml.SingleQuotedStyle, tagStr
		n.Value = p.singleQuoted()
	default:
		var stop byte
		n.Value, stop = p.plain(flow)
		n.Tag = resolve(n.Value)
		if stop == ':' {
			if p.pos-start > maxKey {
				p.fail()
			}
			return n, true
		}
		return n, false
	}
	// After a quoted scalar: a key when ':' follows (in flow, directly or
	// after spaces; in block, followed by a space or the line's end).
	i := p.pos
	for i < len(p.src) && p.src[i] == ' ' {
		i++
	}
	if p.at(i) == ':' && (flow || p.blankz(i+1)) {
		if i-start > maxKey || p.line != line {
			p.fail()
		}
		p.pos = i
		return n, true
	}
	return n, false
}

// plain reads a one-line plain scalar at pos. It returns its value and
// what stopped it: ':' (a key's indicator, pos at it), '#' or '\n' (the
// comment or line end, pos after the value) or, in flow context, the
// flow indicator at pos.
func (p *parser) plain(flow bool) (string, byte) {
	start := p.pos
	c := p.src[start]
	switch c {
	case '-':
		if p.blankz(start+1) || flow && isFlowIndicator(p.at(start+1)) {
			p.fail()
		}
	case '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
		p.fail()
	}
	return p.words(start, flow)
}

// words reads the words of a plain scalar from start to the end of its
// line; it returns them and what stopped them, as plain does.
func (p *parser) words(start int, flow bool) (string, byte) {
	end := start // after the last non-space character
	i := start
	for {
		// At the start of a word.
		for i < len(p.src) {
			c := p.src[i]
			if c == ' ' || c == '\n' {
				break
			}
			if c == ':' {
				if p.blankz(i + 1) {
					p.pos = end
					if i != end {
						p.fail() // cannot happen: ':' ends a word
					}
					return p.src[start:end], ':'
				}
				if flow {
					p.fail() // "a:b" in flow: left to yaml.v3
				}
			}
			if flow && (isFlowIndicator(c) || c == '?') {
				if c == '?' {
					p.fail()
				}
				if i == start {
					p.fail()
				}
				p.pos = end
				return p.src[start:end], c
			}
			i++
			end = i
		}
		// Spaces, then the next word, a comment or the line end.
		for i < len(p.src) && p.src[i] == ' ' {
			i++
		}
		if i >= len(p.src) || p.src[i] == '\n' {
			p.pos = end
			return p.src[start:end], '\n'
		}
		if p.src[i] == '#' {
			p.pos = end
			return p.src[start:end], '#'
		}
		if p.src[i] == ':' && p.blankz(i+1) {
			// "key  : value"
			p.pos = i
			return p.src[start:end], ':'
		}
		if flow && (isFlowIndicator(p.src[i]) || p.src[i] == '?') {
			if p.src[i] == '?' {
				p.fail()
			}
			p.pos = end
			return p.src[start:end], p.src[i]
		}
	}
}

func isFlowIndicator(c byte) bool {
	return c == ',' || c == '[' || c == ']' || c == '{' || c == '}'
}

// singleQuoted reads a single-quoted scalar at pos.
func (p *parser) singleQuoted() string {
	start := p.pos + 1
	if j := strings.IndexByte(p.src[start:], '\''); j >= 0 && p.at(start+j+1) != '\'' {
		if v := p.src[start : start+j]; strings.IndexByte(v, '\n') < 0 {
			p.pos = start + j + 1
			return v // one line, no '': a slice of the text
		}
	}
	return p.quoted(start, true)
}

// doubleQuoted reads a double-quoted scalar at pos, with yaml.v3's escapes.
func (p *parser) doubleQuoted() string {
	start := p.pos + 1
	if j := quoteStop(p.src, start); j < len(p.src) && p.src[j] == '"' {
		p.pos = j + 1
		return p.src[start:j] // one line, no escapes: a slice of the text
	}
	return p.quoted(start, false)
}

// quoteStop returns the offset of the first '"', '\\' or '\n' in s from
// i on, or len(s). It tests eight bytes at a time: the lowest byte marked
// in a word is the first stop (a borrow marks only bytes above a true
// match), as the sums are computed per target.
func quoteStop(s string, i int) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for ; i+8 <= len(s); i += 8 {
		w := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		q, b, n := w^('"'*ones), w^('\\'*ones), w^('\n'*ones)
		if m := ((q-ones)&^q | (b-ones)&^b | (n-ones)&^n) & highs; m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for ; i < len(s); i++ {
		if c := s[i]; c == '"' || c == '\\' || c == '\n' {
			return i
		}
	}
	return i
}

// quoted reads a quoted scalar whose text starts at offset start, with
// escapes (” in single quotes; yaml.v3's backslash escapes in double
// quotes) and over several lines, folded as yaml.v3 folds them: a line
// break between words is a space, blank lines are line breaks, spaces
// around a break go, and an escaped line break joins the lines. It ends
// with pos after the closing quote, on its line.
func (p *parser) quoted(start int, single bool) string {
	var buf []byte
	i := start
	for {
		if i >= len(p.src) {
			p.fail() // unterminated
		}
		escapedBreak := false
		// A run of characters other than spaces and line breaks.
	run:
		for i < len(p.src) {
			c := p.src[i]
			switch {
			case c == ' ' || c == '\n':
				break run
			case single && c == '\'':
				if p.at(i+1) != '\'' {
					break run
				}
				buf = append(buf, '\'')
				i += 2
			case !single && c == '"':
				break run
			case !single && c == '\\':
				if p.at(i+1) == '\n' {
					i += 2
					p.newLine(i)
					escapedBreak = true
					break run
				}
				i = p.escape(&buf, i)
			default:
				buf = append(buf, c)
				i++
			}
		}
		if i >= len(p.src) {
			p.fail()
		}
		if c := p.src[i]; single && c == '\'' || !single && c == '"' {
			break
		}
		// Spaces and line breaks, then fold.
		spaces, breaks := i, 0
		for i < len(p.src) && (p.src[i] == ' ' || p.src[i] == '\n') {
			if p.src[i] == '\n' {
				breaks++
				i++
				p.newLine(i)
				continue
			}
			i++
		}
		switch {
		case escapedBreak:
			buf = appendBreaks(buf, breaks)
		case breaks == 0:
			buf = append(buf, p.src[spaces:i]...)
		case breaks == 1:
			buf = append(buf, ' ')
		default:
			buf = appendBreaks(buf, breaks-1)
		}
	}
	p.pos = i + 1
	return string(buf)
}

func appendBreaks(buf []byte, n int) []byte {
	for range n {
		buf = append(buf, '\n')
	}
	return buf
}

// newLine notes that a scalar went on to a new line starting at offset
// i; a document marker there goes to yaml.v3.
func (p *parser) newLine(i int) {
	p.line++
	p.lineStart = i
	if i < len(p.src) {
		p.checkMarker(i)
	}
}

// escape appends what the backslash escape at offset i stands for and
// returns the offset after it.
func (p *parser) escape(buf *[]byte, i int) int {
	e := p.at(i + 1)
	i += 2
	digits := 0
	switch e {
	case 'x':
		digits = 2
	case 'u':
		digits = 4
	case 'U':
		digits = 8
	default:
		r, ok := escape(e)
		if !ok {
			p.fail() // unknown escape
		}
		*buf = utf8.AppendRune(*buf, r)
		return i
	}
	if i+digits > len(p.src) {
		p.fail()
	}
	v, err := strconv.ParseUint(p.src[i:i+digits], 16, 32)
	if err != nil || v > 0x10ffff || v >= 0xd800 && v <= 0xdfff {
		p.fail()
	}
	*buf = utf8.AppendRune(*buf, rune(v))
	return i + digits
}

// escapes pairs each one-character escape of a double-quoted scalar (as
// yaml.v3 reads them: \' too, \/ not) with what it stands for.
var escapes = [...]struct {
	c byte
	r rune
}{
	{'0', 0}, {'a', '\a'}, {'b', '\b'}, {'t', '\t'}, {'n', '\n'}, {'v', '\v'}, {'f', '\f'},
	{'r', '\r'}, {'e', 0x1b}, {' ', ' '}, {'"', '"'}, {'\'', '\''}, {'\\', '\\'},
	{'N', 0x85}, {'_', 0xa0}, {'L', 0x2028}, {'P', 0x2029},
}

func escape(c byte) (rune, bool) {
	for _, e := range escapes {
		if e.c == c {
			return e.r, true
		}
	}
	return 0, false
}

// flow parses a flow sequence or mapping at pos; pos ends after its
// closing bracket. Its scalars are one-line scalars.
func (p *parser) flow() *yaml.Node {
	p.enter()
	defer func() { p.depth-- }()
	n := p.node()
	n.Line, n.Column = p.line, p.col(p.pos)
	n.Style = yaml.FlowStyle
	closing := byte(']')
	if p.src[p.pos] == '{' {
		n.Kind, n.Tag, closing = yaml.MappingNode, tagMap, '}'
	} else {
		n.Kind, n.Tag = yaml.SequenceNode, tagSeq
	}
	p.pos++
	p.flowSpaces()
	if p.src[p.pos] == closing {
		p.pos++
		return n
	}
	mark := len(p.stack)
	for {
		if n.Kind == yaml.MappingNode {
			key, isKey := p.flowItem(true)
			if !isKey {
				p.fail() // "{a}" or "{a, b}": left to yaml.v3
			}
			p.pos++ // ':'
			p.flowSpaces()
			if c := p.src[p.pos]; c == ',' || c == '}' {
				p.fail() // empty value
			}
			val, isKey := p.flowItem(false)
			if isKey {
				p.fail()
			}
			p.stack = append(p.stack, key, val)
		} else {
			item, isKey := p.flowItem(false)
			if isKey {
				p.fail() // "[a: b]", a single pair
			}
			p.stack = append(p.stack, item)
		}
		p.flowSpaces()
		c := p.src[p.pos]
		if c == closing {
			p.pos++
			break
		}
		if c != ',' {
			p.fail()
		}
		p.pos++
		p.flowSpaces()
		if c := p.src[p.pos]; c == closing || c == ',' {
			p.fail() // trailing or doubled comma
		}
	}
	n.Content = p.children(mark)
	return n
}

// children moves the nodes on the stack from mark into a slice of their
// own.
func (p *parser) children(mark int) []*yaml.Node {
	c := make([]*yaml.Node, len(p.stack)-mark)
	copy(c, p.stack[mark:])
	clear(p.stack[mark:])
	p.stack = p.stack[:mark]
	return c
}

// flowSpaces skips the spaces, line breaks and comments between the
// tokens of a flow collection (which may span lines, as formatters such
// as prettier write long ones).
func (p *parser) flowSpaces() {
	for {
		for p.pos < len(p.src) && p.src[p.pos] == ' ' {
			p.pos++
		}
		if p.pos >= len(p.src) {
			p.fail()
		}
		switch p.src[p.pos] {
		case '\n':
			p.pos++
			p.line++
			p.lineStart = p.pos
			if p.pos < len(p.src) {
				p.checkMarker(p.pos)
			}
			continue
		case '#':
			if p.pos > p.lineStart && p.src[p.pos-1] != ' ' {
				p.fail()
			}
			p.pos = p.lineEnd(p.pos)
			continue
		}
		return
	}
}

// flowItem parses a node inside a flow collection; for a scalar it
// reports whether a ':' follows it (pos then at the ':').
func (p *parser) flowItem(wantKey bool) (*yaml.Node, bool) {
	switch p.src[p.pos] {
	case '[', '{':
		if wantKey {
			p.fail()
		}
		return p.flow(), false
	}
	n, isKey := p.scalar(true)
	if !isKey && n.Style == 0 && n.Value == "" {
		p.fail()
	}
	return n, isKey
}
