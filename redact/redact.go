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
// Values shorter than 6 bytes are not taken as secrets: masking every
// "true" or "dev" in the output would destroy it and hide nothing.
package redact

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"encoding/xml"
	"html"
	"io"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// Mask replaces every secret.
const Mask = "[REDACTED]"

// minLen is the length below which a value is not taken as a secret.
const minLen = 6

// Redactor masks secrets. The zero value and a nil *Redactor mask only what
// the patterns recognise. It is safe for concurrent use; secrets may be
// added while others redact.
type Redactor struct {
	mu     sync.Mutex // serialises Add
	needle atomic.Pointer[table]
}

// table returns what r looks for: its secrets' forms and the patterns.
func (r *Redactor) table() *table {
	if r != nil {
		if t := r.needle.Load(); t != nil {
			return t
		}
	}
	return patternsOnly
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
	var known []string
	if t := r.needle.Load(); t != nil {
		known = t.secrets
	}
	next := slices.Clone(known)
	for _, s := range secrets {
		if len(s) < minLen {
			continue
		}
		for _, v := range forms(s) {
			if len(v) >= minLen && !slices.Contains(next, v) {
				next = append(next, v)
			}
		}
	}
	if len(next) > len(known) {
		r.needle.Store(newTable(next))
	}
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

// Bytes returns b with every secret masked. It returns b itself, unchanged
// and without allocating, when there is nothing to mask.
func (r *Redactor) Bytes(b []byte) []byte { return r.table().mask(b, false, nil) }

// JSON is Bytes for JSON text (a JSON value, or JSON lines): it masks only
// inside string values, never across an escape sequence, so the result
// stays valid JSON with the same keys, numbers and structure.
func (r *Redactor) JSON(b []byte) []byte { return r.table().mask(b, true, nil) }

// JSONIn is JSON for a text whose writer knows where a secret could be:
// within lists ranges [start, end) of b, each a whole JSON value (a string
// with its quotes, an object, an array), and JSONIn looks only there. An
// encoder that writes its own field names marks the values it was given
// and spares the scan of the rest. Inside the ranges, JSONIn masks the
// keys of objects too (they came from outside: a secret a tool call used
// as a key), where JSON keeps every key because it cannot tell them from
// the writer's field names. Otherwise the result is what JSON gives when
// every string value and every object with keys from outside lies within
// a range.
func (r *Redactor) JSONIn(b []byte, within [][2]int) []byte {
	if within == nil {
		within = [][2]int{}
	}
	return r.table().mask(b, true, within)
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
