// Package redact keeps the secrets a process knows out of what it writes.
//
// A [Redactor] holds secrets (tokens and keys from the environment and from
// flags, the user-info of URLs) and replaces every occurrence of them in
// bytes on their way out with [Mask]. It is the one mechanism every writer
// of agenteval applies at its last step: the results JSONL, the judge cache
// and --record cassettes, the lines a report reads, and the CLI's standard
// output and error. Besides the secrets it was given, it masks the values
// of Authorization headers, tokens of known shapes (GitHub, OpenAI and
// Anthropic, Slack, AWS, GitLab, npm, Hugging Face, Google, Stripe), the
// user-info, secret query parameters and webhook paths of URLs, which no
// legitimate output contains, and the parts of secrets that an excerpt
// cut (see Ellipsis). Users add variable names and patterns with Rules.
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
	"errors"
	"fmt"
	"html"
	"io"
	"net/url"
	"path"
	"regexp"
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
// variable whose name says it holds one (one with TOKEN, SECRET, PASSWORD,
// API_KEY, CREDENTIAL or the like in it, or ending in a word such as KEY,
// PAT or PWD after another: DEPLOY_KEY, DB_PWD), and the
// user-info and secret query parameters of every value that is a URL
// (OPENAI_BASE_URL=https://user:password@host, HTTPS_PROXY).
func FromEnvironment(environ []string) *Redactor {
	r := &Redactor{}
	r.add(environSecrets(environ, nil))
	return r
}

// environSecrets returns the secrets of an environment: the values of
// the variables secretName or one of the globs names, and the URL
// secrets of every value.
func environSecrets(environ []string, names []string) []string {
	var secrets []string
	for _, kv := range environ {
		name, value, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		if secretName(name) || matchesAny(names, name) {
			secrets = append(secrets, value)
		}
		secrets = append(secrets, urlSecrets(value)...)
	}
	return secrets
}

// matchesAny reports whether name matches one of the globs (path.Match
// syntax), ignoring case.
func matchesAny(globs []string, name string) bool {
	for _, g := range globs {
		if ok, _ := path.Match(strings.ToUpper(g), strings.ToUpper(name)); ok {
			return true
		}
	}
	return false
}

// secretWords are the words of a variable's name (split at anything but
// letters and digits) that make it a secret wherever they stand, and
// secretInfixes the parts that do anywhere in the name (NPMTOKEN).
var (
	secretWords = []string{"AUTH", "CREDS", "CRED", "PIN"}
	// secretInfixes hold PASSWORD's and CREDENTIAL's plurals too.
	secretInfixes = []string{"TOKEN", "SECRET", "PASSWORD", "PASSWD", "PASSPHRASE", "CREDENTIAL", "COOKIE", "WEBHOOK",
		"API_KEY", "APIKEY", "ACCESS_KEY", "PRIVATE_KEY", "CONNECTION_STRING", "CONNSTR"}
	// secretLastWords make a name a secret as its last word.
	secretLastWords = []string{"KEY", "KEYS", "PAT", "PASS", "PWD", "SIG", "SIGNATURE", "DSN", "SALT"}
)

// secretName reports whether an environment variable's name says that it
// holds a secret: a name that contains TOKEN, SECRET, PASSWORD, PASSWD,
// PASSPHRASE, CREDENTIAL, COOKIE, WEBHOOK, API_KEY, APIKEY, ACCESS_KEY,
// PRIVATE_KEY or CONNECTION_STRING; that has AUTH, CRED, CREDS or PIN as
// one of its words (NPM_AUTH, AWS_CREDS); or whose last word, after at
// least one other, is KEY, KEYS, PAT, PASS, PWD, SIG, SIGNATURE, DSN or
// SALT (DEPLOY_KEY, DB_PWD; PWD alone is the working directory). Case does not matter. Users add names with Rules.Names.
func secretName(name string) bool {
	n := strings.ToUpper(name)
	for _, w := range secretInfixes {
		if strings.Contains(n, w) {
			return true
		}
	}
	words := strings.FieldsFunc(n, func(r rune) bool { return !('A' <= r && r <= 'Z' || '0' <= r && r <= '9') })
	for _, w := range words {
		if slices.Contains(secretWords, w) {
			return true
		}
	}
	return len(words) > 1 && slices.Contains(secretLastWords, words[len(words)-1])
}

// Rules are what a user adds to what a Redactor masks: the names of
// environment variables that hold secrets, as globs (MYCO_*, *_SALT;
// path.Match syntax, any case), and regular expressions (RE2 syntax)
// whose every match is masked wherever it occurs.
type Rules struct {
	Names    []string
	Patterns []string
}

// ErrBadRule is a Rules entry that is not a valid glob or expression.
var ErrBadRule = errors.New("bad secret rule")

// Compile checks the rules and returns their patterns compiled.
func (rs Rules) Compile() ([]*regexp.Regexp, error) {
	for _, g := range rs.Names {
		if _, err := path.Match(g, ""); err != nil || strings.TrimSpace(g) == "" {
			return nil, fmt.Errorf("%w: name %q: want a glob such as MYCO_* (path.Match syntax)", ErrBadRule, g)
		}
	}
	var out []*regexp.Regexp
	for _, p := range rs.Patterns {
		re, err := regexp.Compile(p)
		if err != nil {
			return nil, fmt.Errorf("%w: pattern %q: %v", ErrBadRule, p, err)
		}
		if re.MatchString("") {
			return nil, fmt.Errorf("%w: pattern %q matches the empty text; it would mask nothing and everything", ErrBadRule, p)
		}
		out = append(out, re)
	}
	return out, nil
}

// AddRules adds the user's rules: the values of the variables of environ
// whose names match rs.Names become secrets, and rs.Patterns are masked
// wherever they match.
func (r *Redactor) AddRules(environ []string, rs Rules) error {
	res, err := rs.Compile()
	if err != nil {
		return err
	}
	var secrets []string
	for _, kv := range environ {
		if name, value, ok := strings.Cut(kv, "="); ok && matchesAny(rs.Names, name) {
			secrets = append(secrets, value)
		}
	}
	r.addAll(secrets, res)
	return nil
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

// AddURL adds the user-info and the secret query parameters (such as
// ?access_token=) of a URL (a flag such as --graphql-url); the rest of the
// URL is not secret. A value that is not a URL adds nothing.
func (r *Redactor) AddURL(raw string) { r.add(urlSecrets(raw)) }

func (r *Redactor) add(secrets []string) { r.addAll(secrets, nil) }

func (r *Redactor) addAll(secrets []string, patterns []*regexp.Regexp) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var known []string
	var knownPatterns []*regexp.Regexp
	if t := r.needle.Load(); t != nil {
		known, knownPatterns = t.secrets, t.patterns
	}
	nextPatterns := slices.Clone(knownPatterns)
	for _, p := range patterns {
		if !slices.ContainsFunc(nextPatterns, func(q *regexp.Regexp) bool { return q.String() == p.String() }) {
			nextPatterns = append(nextPatterns, p)
		}
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
	if len(next) > len(known) || len(nextPatterns) > len(knownPatterns) {
		r.needle.Store(newTable(next, nextPatterns))
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
	query := urlQuerySecrets(raw)
	if end := strings.IndexAny(rest, "/?#"); end >= 0 {
		rest = rest[:end]
	}
	at := strings.LastIndexByte(rest, '@')
	if at < 0 {
		return query
	}
	info := rest[:at]
	out := query
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
