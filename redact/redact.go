// Package redact keeps the secrets a process knows out of what it writes.
//
// A [Redactor] holds secrets (tokens and keys from the environment and from
// flags, the user-info of URLs) and replaces every occurrence of them in
// bytes on their way out with [Mask]. It is the one mechanism every writer
// of agenteval applies at its last step: the results JSONL, the judge cache
// and --record cassettes, the lines a report reads, and the CLI's standard
// output and error. Besides the secrets it was given, it masks the values
// of Authorization headers and strings shaped like GitHub tokens and OpenAI
// keys, which no legitimate output contains.
//
// A secret is matched as written and in the forms output encodes it into:
// escaped as in JSON and HTML, percent-encoded as in URLs, and, for the
// user-info of a URL, base64-encoded as in a Basic Authorization header.
// Values shorter than [MinLen] bytes are not taken as secrets: masking every
// "true" or "dev" in the output would destroy it and hide nothing.
package redact

import (
	"bytes"
	"cmp"
	"encoding/base64"
	"encoding/json"
	"encoding/xml"
	"html"
	"io"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// Mask replaces every secret.
const Mask = "[REDACTED]"

// MinLen is the length below which a value is not taken as a secret.
const MinLen = 6

// Redactor masks secrets. The zero value and a nil *Redactor mask only what
// the patterns recognise. It is safe for concurrent use; secrets may be
// added while others redact.
type Redactor struct {
	mu      sync.Mutex // serialises Add
	needles atomic.Pointer[[][]byte]
}

// New returns a Redactor that knows the given secrets.
func New(secrets ...string) *Redactor {
	r := &Redactor{}
	r.Add(secrets...)
	return r
}

// FromEnvironment returns a Redactor that knows the secrets in an
// environment given as KEY=VALUE entries (os.Environ()): the value of every
// variable whose name says it holds one (TOKEN, SECRET, PASSWORD, PASSWD,
// PASSPHRASE, CREDENTIAL, API_KEY, APIKEY, ACCESS_KEY, PRIVATE_KEY, or a name
// ending in _KEY, _PAT or _PASS), and the user-info of every value that is a
// URL with one (OPENAI_BASE_URL=https://user:password@host, HTTPS_PROXY).
func FromEnvironment(environ []string) *Redactor {
	r := &Redactor{}
	var secrets []string
	for _, kv := range environ {
		name, value, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		if secretName(name) {
			secrets = append(secrets, value)
		}
		secrets = append(secrets, urlSecrets(value)...)
	}
	r.add(secrets)
	return r
}

// secretName reports whether an environment variable's name says that it
// holds a secret (see FromEnvironment).
func secretName(name string) bool {
	n := strings.ToUpper(name)
	for _, w := range []string{"TOKEN", "SECRET", "PASSWORD", "PASSWD", "PASSPHRASE", "CREDENTIAL", "API_KEY", "APIKEY", "ACCESS_KEY", "PRIVATE_KEY"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	for _, suffix := range []string{"_KEY", "_PAT", "_PASS"} {
		if strings.HasSuffix(n, suffix) {
			return true
		}
	}
	return false
}

// Add adds secrets. A value that is a URL with user-info adds its user-info
// too (the URL itself is kept as a secret only as a whole).
func (r *Redactor) Add(secrets ...string) {
	all := slices.Clone(secrets)
	for _, s := range secrets {
		all = append(all, urlSecrets(s)...)
	}
	r.add(all)
}

// AddURL adds the user-info of a URL (a flag such as --graphql-url); the
// rest of the URL is not secret. A value that is not a URL adds nothing.
func (r *Redactor) AddURL(raw string) { r.add(urlSecrets(raw)) }

func (r *Redactor) add(secrets []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var old [][]byte
	if p := r.needles.Load(); p != nil {
		old = *p
	}
	next := slices.Clone(old)
	for _, s := range secrets {
		if len(s) < MinLen {
			continue
		}
		for _, v := range forms(s) {
			if len(v) >= MinLen && !slices.ContainsFunc(next, func(n []byte) bool { return string(n) == v }) {
				next = append(next, []byte(v))
			}
		}
	}
	// Longest first, so that an encoded form is masked whole before a
	// shorter form inside it is looked for.
	slices.SortStableFunc(next, func(a, b []byte) int { return len(b) - len(a) })
	r.needles.Store(&next)
}

// forms returns s as written and as output encodes it.
func forms(s string) []string {
	htmlSafe, _ := json.Marshal(s) // escapes <, > and & too, as encoding/json does by default
	var plain bytes.Buffer
	enc := json.NewEncoder(&plain)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	unquote := func(q []byte) string { return string(bytes.TrimSuffix(bytes.TrimSpace(q), []byte(`"`))[1:]) }
	var xmlText bytes.Buffer
	_ = xml.EscapeText(&xmlText, []byte(s))
	escaped := html.EscapeString(s)
	return []string{s, unquote(htmlSafe), unquote(plain.Bytes()),
		escaped, strings.ReplaceAll(escaped, "+", "&#43;"), // html/template escapes + too
		xmlText.String(), url.QueryEscape(s), url.PathEscape(s)}
}

// urlSecrets returns the user-info of a URL: the password, the user when it
// is the only credential (https://TOKEN@host), the whole user:password, each
// as written and percent-decoded, and the base64 form a Basic Authorization
// header carries. It reads the user-info by hand: a password with a raw
// character that url.Parse refuses is still a password.
func urlSecrets(raw string) []string {
	_, rest, ok := strings.Cut(strings.TrimSpace(raw), "://")
	if !ok {
		return nil
	}
	if end := strings.IndexAny(rest, "/?#"); end >= 0 {
		rest = rest[:end]
	}
	at := strings.LastIndexByte(rest, '@')
	if at < 0 {
		return nil
	}
	info := rest[:at]
	var out []string
	for _, text := range []string{info, unescape(info)} {
		user, pass, hasPass := strings.Cut(text, ":")
		if !hasPass {
			out = append(out, user, base64.StdEncoding.EncodeToString([]byte(user+":")))
			continue
		}
		out = append(out, pass, text, base64.StdEncoding.EncodeToString([]byte(text)))
	}
	return out
}

// unescape percent-decodes s part by part, so that user and password decode
// on their own (an encoded colon stays in the password); s as it is when it
// is not valid percent-encoding.
func unescape(s string) string {
	user, pass, hasPass := strings.Cut(s, ":")
	u, err1 := url.PathUnescape(user)
	p, err2 := url.PathUnescape(pass)
	if err1 != nil || err2 != nil {
		return s
	}
	if !hasPass {
		return u
	}
	return u + ":" + p
}

// Known shapes of secrets nobody gave us: Authorization header values (as
// text, as a Go header map prints them, as JSON), GitHub tokens and OpenAI keys.
var (
	authHeader  = regexp.MustCompile(`(?i)(\bauthorization\b["']?\s*[:=]\s*[\["']?\s*)((?:bearer|basic|token|digest)\s+)?[^\s"'\],;\\]+`)
	tokenShaped = regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{30,255}|github_pat_[A-Za-z0-9_]{22,255}|sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,255})`)
	tokenMarks  = [][]byte{[]byte("ghp_"), []byte("gho_"), []byte("ghu_"), []byte("ghs_"), []byte("ghr_"), []byte("github_pat_"), []byte("sk-")}
)

// Bytes returns b with every secret masked. It returns b itself, unchanged
// and without allocating, when there is nothing to mask.
func (r *Redactor) Bytes(b []byte) []byte { return r.mask(b, false) }

// JSON is Bytes for JSON text (a JSON value, or JSON lines): it masks only
// inside string values, never across an escape sequence, so the result
// stays valid JSON with the same keys, numbers and structure.
func (r *Redactor) JSON(b []byte) []byte { return r.mask(b, true) }

// span is a byte range [start, end).
type span struct{ start, end int }

func (r *Redactor) mask(b []byte, inJSON bool) []byte {
	var needles [][]byte
	if r != nil {
		if p := r.needles.Load(); p != nil {
			needles = *p
		}
	}
	hit := false
	for _, n := range needles {
		if hit = bytes.Contains(b, n); hit {
			break
		}
	}
	auth := bytes.Contains(b, []byte("uthorization")) || bytes.Contains(b, []byte("UTHORIZATION"))
	tokens := slices.ContainsFunc(tokenMarks, func(m []byte) bool { return bytes.Contains(b, m) })
	if !hit && !auth && !tokens {
		return b
	}
	ok := func(span) bool { return true }
	if inJSON {
		ok = jsonStrings(b).holds
	}
	var found []span
	for _, n := range needles {
		for off := 0; off+len(n) <= len(b); {
			i := bytes.Index(b[off:], n)
			if i < 0 {
				break
			}
			s := span{off + i, off + i + len(n)}
			if ok(s) {
				found = append(found, s)
				off = s.end
			} else {
				off = s.start + 1 // an occurrence may start inside this one
			}
		}
	}
	if auth {
		for _, m := range authHeader.FindAllSubmatchIndex(b, -1) {
			s := span{m[3], m[1]} // the value follows the name and separator (group 1)
			if m[4] >= 0 {
				s.start = m[5] // and the scheme, when there is one (group 2)
			}
			if ok(s) && !bytes.HasPrefix(b[s.start:], []byte(Mask[:len(Mask)-1])) {
				found = append(found, s)
			}
		}
	}
	if tokens {
		for _, m := range tokenShaped.FindAllIndex(b, -1) {
			if s := (span{m[0], m[1]}); ok(s) {
				found = append(found, s)
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

// jsonText is where the string values of a JSON text lie.
type jsonText struct {
	values   []span // the contents of string values (not keys), in order
	inEscape []bool // bytes after the backslash of an escape sequence
}

// jsonStrings finds the string values of the JSON text b.
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
		for k < len(b) && (b[k] == ' ' || b[k] == '\t' || b[k] == '\n' || b[k] == '\r') {
			k++
		}
		if k >= len(b) || b[k] != ':' {
			t.values = append(t.values, span{i + 1, j})
		}
		i = j
	}
	return t
}

// holds reports whether s lies inside one string value and starts and ends
// between characters, not inside an escape sequence such as \n or \u0041.
func (t *jsonText) holds(s span) bool {
	n, _ := slices.BinarySearchFunc(t.values, s.start, func(v span, start int) int {
		if v.end < start {
			return -1
		}
		if v.start > start {
			return 1
		}
		return 0
	})
	return n < len(t.values) && t.values[n].start <= s.start && s.end <= t.values[n].end && !t.inEscape[s.start] && !t.inEscape[s.end]
}

// String returns s with every secret masked.
func (r *Redactor) String(s string) string {
	b := r.Bytes([]byte(s))
	return string(b)
}

// Writer returns a writer that masks each Write before passing it on to w.
// A secret is found within one Write: wrap writers that receive whole
// lines or records (fmt.Fprintf, an encoder), not a buffered stream cut
// at arbitrary points.
func (r *Redactor) Writer(w io.Writer) io.Writer { return &writer{r: r, w: w} }

type writer struct {
	r *Redactor
	w io.Writer
}

func (w *writer) Write(p []byte) (int, error) {
	q := w.r.Bytes(p)
	if len(q) == len(p) && (len(p) == 0 || &q[0] == &p[0]) {
		return w.w.Write(p)
	}
	if _, err := w.w.Write(q); err != nil {
		return 0, err
	}
	return len(p), nil
}
