package redact

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"math/bits"
	"regexp"
	"slices"
)

// What a table looks for at a position: a secret, or the mark of a pattern.
const (
	kindSecret = iota
	kindAuth   // "uthorization": the value of an Authorization header follows
	kindToken  // the prefix of a known kind of token or key (see tokenSpecs)
	kindCut    // Ellipsis: a text was cut here (see Ellipsis)
	kindURL    // "://": a URL, whose user-info, secret query parameters and webhook path are masked
)

// marks are the patterns' fixed parts; anchor is where their two rare pairs
// of bytes begin (see table).
var marks = func() []entry {
	m := []entry{
		{text: []byte("uthorization"), kind: kindAuth, anchor: 5}, {text: []byte("UTHORIZATION"), kind: kindAuth, anchor: 5},
		{text: []byte(Ellipsis), kind: kindCut}, {text: []byte("://"), kind: kindURL},
	}
	for _, ts := range tokenSpecs {
		m = append(m, entry{text: []byte(ts.prefix), kind: kindToken, anchor: ts.anchor})
	}
	return m
}()

// tokenSpec is a known shape of token or key: a prefix, then at least
// least (and, when most is set, at most most) bytes that body accepts.
type tokenSpec struct {
	prefix      string
	anchor      int
	body        func(byte) bool
	least, most int
}

func alnum(c byte) bool     { return isWord(c) && c != '_' }
func upperNum(c byte) bool  { return 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' }
func wordDash(c byte) bool  { return isWord(c) || c == '-' }
func alnumDash(c byte) bool { return alnum(c) || c == '-' }

// tokenSpecs are the token shapes masked wherever they occur (see the
// package doc): GitHub's, OpenAI's and Anthropic's (sk-), Slack's, AWS
// access key ids, GitLab's, npm's, Hugging Face's, Google API keys and
// Stripe's secret keys.
var tokenSpecs = []tokenSpec{
	{prefix: "ghp_", anchor: 1, body: alnum, least: 30}, {prefix: "gho_", anchor: 1, body: alnum, least: 30},
	{prefix: "ghu_", anchor: 1, body: alnum, least: 30}, {prefix: "ghs_", anchor: 1, body: alnum, least: 30},
	{prefix: "ghr_", anchor: 1, body: alnum, least: 30}, {prefix: "github_pat_", anchor: 5, body: isWord, least: 22},
	{prefix: "sk-", body: wordDash, least: 20},
	{prefix: "xoxa-", anchor: 2, body: alnumDash, least: 10}, {prefix: "xoxb-", anchor: 2, body: alnumDash, least: 10},
	{prefix: "xoxp-", anchor: 2, body: alnumDash, least: 10}, {prefix: "xoxr-", anchor: 2, body: alnumDash, least: 10},
	{prefix: "xoxs-", anchor: 2, body: alnumDash, least: 10}, {prefix: "xoxe-", anchor: 2, body: alnumDash, least: 10},
	{prefix: "xoxe.", anchor: 2, body: alnumDash, least: 10},
	{prefix: "AKIA", body: upperNum, least: 16, most: 16}, {prefix: "ASIA", body: upperNum, least: 16, most: 16},
	{prefix: "glpat-", body: wordDash, least: 20}, {prefix: "npm_", anchor: 1, body: alnum, least: 36},
	{prefix: "hf_", body: alnum, least: 30}, {prefix: "AIza", body: wordDash, least: 35},
	{prefix: "sk_live_", anchor: 1, body: alnum, least: 16}, {prefix: "sk_test_", anchor: 1, body: alnum, least: 16},
	{prefix: "rk_live_", anchor: 1, body: alnum, least: 16}, {prefix: "rk_test_", anchor: 1, body: alnum, least: 16},
}

// Every entry is at least three bytes long (two pairs from its anchor):
// the marks are, and so are secrets (minLen; this fails to compile if that
// ever drops below three).
var _ [minLen - 3]struct{}

// patternsOnly is the table of a Redactor that knows no secret.
var patternsOnly = newTable(nil, nil)

// entry is something a table looks for. Its anchor is an offset such that
// text[anchor:anchor+3] exists; the table is keyed by the two pairs of bytes
// there.
type entry struct {
	text   []byte
	kind   int
	anchor int
}

// table finds every secret and mark in one pass over the text. The scan
// reads a pair of bytes at every even position and tests it against a
// bitset of 2^16 bits: an occurrence of an entry at p puts its anchor pair
// (text[a:a+2]) at p+a or its next pair (text[a+1:a+3]) at p+a+1, one of
// which is even, so half the positions are read and almost every one is
// ruled out by one bit test. Anchors avoid pairs common in prose ("th" and
// "at" of "authorization": see proseAnchor). The entries registered under
// a pair are compared only where it occurs; they are found by the pair's
// rank among the bits set (rank plus a population count), which costs a
// few instructions where a map lookup cost more than the whole scan of a
// record without one. It is immutable.
type table struct {
	secrets  []string         // the forms of the secrets, as given to newTable
	patterns []*regexp.Regexp // the user's patterns (Rules.Patterns)
	pairs    [1 << 16 / 64]uint64
	rank     [1 << 16 / 64]uint16 // the bits set in pairs before each word
	hits     [][]hit              // by rank: the entries registered under each pair set
}

// hit is an entry registered under a pair found at offset at of its text.
type hit struct {
	e  *entry
	at int
}

func pairAt(b []byte, i int) uint16 { return uint16(b[i])<<8 | uint16(b[i+1]) }

func newTable(secrets []string, patterns []*regexp.Regexp) *table {
	t := &table{secrets: secrets, patterns: patterns}
	all := slices.Clone(marks)
	for _, s := range secrets {
		all = append(all, entry{text: []byte(s), kind: kindSecret, anchor: proseAnchor(s)}) // secrets are at least 6 bytes
	}
	byPair := map[uint16][]hit{}
	for i := range all {
		e := &all[i]
		for at := e.anchor; at <= e.anchor+1; at++ {
			k := pairAt(e.text, at)
			t.pairs[k>>6] |= 1 << (k & 63)
			byPair[k] = append(byPair[k], hit{e, at})
		}
	}
	n := uint16(0)
	for w := range t.pairs {
		t.rank[w] = n
		for set := t.pairs[w]; set != 0; set &= set - 1 {
			t.hits = append(t.hits, byPair[uint16(w<<6|bits.TrailingZeros64(set))])
			n++
		}
	}
	return t
}

// proseAnchor is where a secret's pairs are least likely to occur in the
// text around it: the first offset neither of whose two pairs is made
// only of lower-case letters and spaces, as prose and JSON field names are
// (a secret anchored on such a pair meets the scan's bit test at every word
// that shares it). Without one, it is 0.
func proseAnchor(s string) int {
	prose := func(c byte) bool { return 'a' <= c && c <= 'z' || c == ' ' }
	for a := 0; a+2 < len(s); a++ {
		if !(prose(s[a]) && prose(s[a+1])) && !(prose(s[a+1]) && prose(s[a+2])) {
			return a
		}
	}
	return 0
}

// each calls f with every position of b where an entry of the table
// occurs, plus off (where b lies in the text f judges), in no particular
// order, each once. Eight bytes are loaded at a
// time and their four even pairs tested together: a record's text almost
// never sets a bit, and four independent lookups per load keep the scan
// from waiting on each one.
func (t *table) each(b []byte, off int, f func(i int, e *entry)) {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		v := binary.LittleEndian.Uint64(b[i:])
		k0, k1 := bits.ReverseBytes16(uint16(v)), bits.ReverseBytes16(uint16(v>>16))
		k2, k3 := bits.ReverseBytes16(uint16(v>>32)), bits.ReverseBytes16(uint16(v>>48))
		if (t.pairs[k0>>6]>>(k0&63)|t.pairs[k1>>6]>>(k1&63)|t.pairs[k2>>6]>>(k2&63)|t.pairs[k3>>6]>>(k3&63))&1 == 0 {
			continue
		}
		for j := i; j < i+8; j += 2 {
			t.at(b, j, off, f)
		}
	}
	for ; i+1 < len(b); i += 2 {
		t.at(b, i, off, f)
	}
}

// at calls f with each entry that occurs in b with one of its two pairs at
// the even position i (see table), at its start plus off.
func (t *table) at(b []byte, i, off int, f func(i int, e *entry)) {
	k := pairAt(b, i)
	w := k >> 6
	if t.pairs[w]&(1<<(k&63)) == 0 {
		return
	}
	below := t.pairs[w] & (1<<(k&63) - 1)
	for _, h := range t.hits[int(t.rank[w])+bits.OnesCount64(below)] {
		start := i - h.at
		// Each occurrence is met once: at its anchor pair when that lies
		// at an even position, else at the next pair.
		if start >= 0 && bytes.HasPrefix(b[start:], h.e.text) {
			f(off+start, h.e)
		}
	}
}

// span is a byte range [start, end).
type span struct{ start, end int }

// mask replaces what the table finds in b with Mask; in JSON text, only
// what lies inside one string value (see jsonText.holds). With within, it
// looks only inside those ranges of b (each a whole JSON value): what it
// finds there is judged against all of b, as without.
func (t *table) mask(b []byte, inJSON bool, within [][2]int) []byte {
	var found []span
	var js *jsonText
	var in [2]int // the range being scanned
	keep := func(s span) bool {
		if !inJSON {
			return true
		}
		if js == nil {
			js = jsonStrings(b)
		}
		// A key is masked only inside a range: the writer's own field
		// names lie outside them, the keys it was given inside.
		return js.holds(s, within != nil && in[0] <= s.start && s.end <= in[1])
	}
	var more []span
	visit := func(i int, e *entry) {
		var s span
		ok := false
		switch e.kind {
		case kindSecret:
			s, ok = span{i, i + len(e.text)}, true
		case kindAuth:
			s, ok = authValue(b, i-1)
		case kindToken:
			s, ok = tokenAt(b, i, e.text)
		case kindCut:
			more = t.partials(b, i, more[:0])
		case kindURL:
			more = urlSecretSpans(b, i, more[:0])
		}
		if ok && keep(s) {
			found = append(found, s)
		}
		for _, s := range more {
			if keep(s) {
				found = append(found, s)
			}
		}
		more = more[:0]
	}
	if within == nil {
		t.each(b, 0, visit)
	}
	for _, r := range within {
		if r[0] < 0 || r[1] > len(b) || r[0] >= r[1] {
			continue // not a range of b: nothing there to look at
		}
		in = r
		t.each(b[r[0]:r[1]], r[0], visit)
	}
	if len(t.patterns) > 0 {
		scan := func(lo, hi int) {
			for _, re := range t.patterns {
				for _, m := range re.FindAllIndex(b[lo:hi], -1) {
					if s := (span{lo + m[0], lo + m[1]}); s.end > s.start && keep(s) {
						found = append(found, s)
					}
				}
			}
		}
		if within == nil {
			scan(0, len(b))
		}
		for _, r := range within {
			if r[0] >= 0 && r[1] <= len(b) && r[0] < r[1] {
				in = r
				scan(r[0], r[1])
			}
		}
	}
	if len(found) == 0 {
		return b
	}
	slices.SortFunc(found, func(x, y span) int { return cmp.Or(x.start-y.start, y.end-x.end) })
	out := make([]byte, 0, len(b))
	last := 0
	for i := 0; i < len(found); {
		cur := found[i]
		for i++; i < len(found) && found[i].start < cur.end; i++ {
			cur.end = max(cur.end, found[i].end) // overlapping finds mask as one
		}
		out = append(out, b[last:cur.start]...)
		out = append(out, Mask...)
		last = cur.end
	}
	return append(out, b[last:]...)
}

func isWord(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// authValue finds the value of an Authorization header whose name starts at
// a: `Authorization: Bearer X`, `Authorization:[token X]` (a Go header map),
// `"authorization":"Basic X"`. The span is X, unless X is masked already.
func authValue(b []byte, a int) (span, bool) {
	const name = "authorization"
	if a < 0 || len(b)-a < len(name) || a > 0 && isWord(b[a-1]) || !bytes.EqualFold(b[a:a+len(name)], []byte(name)) {
		return span{}, false
	}
	i := a + len(name)
	if i < len(b) && isWord(b[i]) {
		return span{}, false
	}
	if i < len(b) && (b[i] == '"' || b[i] == '\'') {
		i++
	}
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	if i >= len(b) || b[i] != ':' && b[i] != '=' {
		return span{}, false
	}
	i++
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	if i < len(b) && (b[i] == '[' || b[i] == '"' || b[i] == '\'') {
		i++
	}
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	for _, scheme := range []string{"bearer", "basic", "token", "digest"} {
		if j := i + len(scheme); j < len(b) && isSpace(b[j]) && bytes.EqualFold(b[i:j], []byte(scheme)) {
			for i = j; i < len(b) && isSpace(b[i]); i++ {
			}
			break
		}
	}
	start := i
	for i < len(b) && !isSpace(b[i]) && !bytes.ContainsRune([]byte(`"'],;\`), rune(b[i])) {
		i++
	}
	if i == start || bytes.HasPrefix(b[start:], []byte(Mask[:len(Mask)-1])) {
		return span{}, false
	}
	return span{start, i}, true
}

// tokenAt finds a token of a known shape (tokenSpecs) starting at i,
// whose prefix mark is. A token whose body runs into an Ellipsis (an
// excerpt cut it) is masked however short the kept part.
func tokenAt(b []byte, i int, mark []byte) (span, bool) {
	if i > 0 && isWord(b[i-1]) {
		return span{}, false
	}
	var ts *tokenSpec
	for k := range tokenSpecs {
		if tokenSpecs[k].prefix == string(mark) {
			ts = &tokenSpecs[k]
			break
		}
	}
	if ts == nil {
		return span{}, false
	}
	j := i + len(mark)
	if ts.prefix == "sk-" {
		for _, p := range []string{"proj-", "svcacct-", "admin-", "ant-"} {
			if bytes.HasPrefix(b[j:], []byte(p)) {
				j += len(p)
				break
			}
		}
	}
	most := ts.most
	if most == 0 {
		most = 255
	}
	k := j
	for k < len(b) && k-j < most && ts.body(b[k]) {
		k++
	}
	if k-j >= ts.least {
		if ts.most > 0 && k < len(b) && alnum(b[k]) {
			return span{}, false // longer than the shape: something else
		}
		return span{i, k}, true
	}
	if k-j > 0 && bytes.HasPrefix(b[k:], []byte(Ellipsis)) {
		return span{i, k}, true
	}
	return span{}, false
}

// partials finds the parts of secrets that touch the Ellipsis at e (see
// Ellipsis): a prefix of a secret's form ending at e, a suffix starting
// after it, or, up to the next Ellipsis, a piece of one. It appends their
// spans to out.
func (t *table) partials(b []byte, e int, out []span) []span {
	f := e + len(Ellipsis)
	next := -1
	if n := bytes.Index(b[f:], []byte(Ellipsis)); n >= MinPartial {
		next = f + n
	}
	for _, form := range t.secrets {
		sec := []byte(form)
		for k := min(len(sec)-1, e); k >= MinPartial; k-- {
			if b[e-k] == sec[0] && bytes.Equal(b[e-k:e], sec[:k]) {
				out = append(out, span{e - k, e})
				break
			}
		}
		for k := min(len(sec)-1, len(b)-f); k >= MinPartial; k-- {
			if bytes.Equal(b[f:f+k], sec[len(sec)-k:]) {
				out = append(out, span{f, f + k})
				break
			}
		}
		if next >= 0 && next-f < len(sec) && bytes.Contains(sec, b[f:next]) {
			out = append(out, span{f, next})
		}
	}
	return out
}

// jsonText is where the strings of a JSON text lie.
type jsonText struct {
	strs     []jsonString // the contents of strings, keys and values, in order
	inEscape []bool       // bytes after the backslash of an escape sequence
}

// jsonString is the contents of a string of a JSON text, an object's key
// or a value.
type jsonString struct {
	span
	key bool
}

// jsonStrings finds the strings of the JSON text b.
func jsonStrings(b []byte) *jsonText {
	t := &jsonText{inEscape: make([]bool, len(b)+1)}
	for i := 0; i < len(b); i++ {
		if b[i] != '"' {
			continue
		}
		j := i + 1
		for j < len(b) && b[j] != '"' {
			if b[j] == '\\' {
				n := 1
				if j+1 < len(b) && b[j+1] == 'u' {
					n = 5
				}
				for k := j + 1; k <= j+n && k < len(b); k++ {
					t.inEscape[k] = true
				}
				j += n + 1
				continue
			}
			j++
		}
		j = min(j, len(b))
		k := j + 1
		for k < len(b) && isSpace(b[k]) {
			k++
		}
		t.strs = append(t.strs, jsonString{span{i + 1, j}, k < len(b) && b[k] == ':'})
		i = j
	}
	return t
}

// holds reports whether s lies inside one string value (or key, with keys)
// and starts and ends between characters, not inside an escape sequence
// such as \n or \u0041.
func (t *jsonText) holds(s span, keys bool) bool {
	n, _ := slices.BinarySearchFunc(t.strs, s.start, func(v jsonString, start int) int {
		if v.end < start {
			return -1
		}
		if v.start > start {
			return 1
		}
		return 0
	})
	if n >= len(t.strs) {
		return false
	}
	str := t.strs[n]
	return (keys || !str.key) && str.start <= s.start && s.end <= str.end && !t.inEscape[s.start] && !t.inEscape[s.end]
}
