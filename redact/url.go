package redact

import (
	"bytes"
	"strings"
)

// maxURLScan bounds how far past "://" a URL is read.
const maxURLScan = 8 << 10

// urlEnd reports whether c ends a URL in text: white space, a quote, an
// angle bracket, a backtick or a control character.
func urlEnd(c byte) bool {
	return c <= ' ' || c == '"' || c == '\'' || c == '<' || c == '>' || c == '`' || c == 0x7f
}

// webhookPaths are the hosts (a host ends with one) and path prefixes
// whose URLs are secrets by their path: whoever knows it can post.
var webhookPaths = []struct{ host, path string }{
	{"hooks.slack.com", "/"},
	{"discord.com", "/api/webhooks/"}, {"discordapp.com", "/api/webhooks/"},
	{"webhook.office.com", "/"}, {"hooks.zapier.com", "/"},
	{"chat.googleapis.com", "/v1/spaces/"},
}

// urlSecretSpans finds, in the URL whose "://" is at i, what a URL
// carries as credentials: its user-info (user:password, or a user alone
// of at least minLen bytes, a token used as the user), the values of its
// secret query (and fragment) parameters (secretParam), and the path of a
// webhook URL (webhookPaths). It appends their spans to out.
func urlSecretSpans(b []byte, i int, out []span) []span {
	a := i + 3
	end := a
	for end < len(b) && end-a < maxURLScan && !urlEnd(b[end]) {
		end++
	}
	auth := a
	for auth < end && !bytes.ContainsRune([]byte(`/?#\`), rune(b[auth])) {
		auth++
	}
	host := b[a:auth]
	if at := bytes.LastIndexByte(host, '@'); at > 0 {
		info := host[:at]
		if bytes.IndexByte(info, ':') >= 0 || len(info) >= minLen {
			if !bytes.HasPrefix(info, []byte(Mask[:len(Mask)-1])) {
				out = append(out, span{a, a + at})
			}
		}
		host = host[at+1:]
	}
	if c := bytes.LastIndexByte(host, ':'); c >= 0 {
		host = host[:c]
	}
	pathEnd := auth
	for pathEnd < end && b[pathEnd] != '?' && b[pathEnd] != '#' {
		pathEnd++
	}
	path := b[auth:pathEnd]
	for _, w := range webhookPaths {
		h := string(bytes.ToLower(host))
		if (h == w.host || strings.HasSuffix(h, "."+w.host)) && bytes.HasPrefix(path, []byte(w.path)) && len(path) > len(w.path) {
			out = append(out, span{auth + len(w.path), pathEnd})
			break
		}
	}
	return queryParamSpans(b, pathEnd, end, out)
}

// queryParamSpans finds the values of secret parameters (secretParam) in
// b[from:to], the query and fragment of a URL; a parameter's name is the
// run of name bytes before an "=" (so "&", "&amp;" and JSON's "\u0026"
// all separate parameters), its value runs to "&", "#", ";" or "\".
func queryParamSpans(b []byte, from, to int, out []span) []span {
	for k := from; k < to; k++ {
		if b[k] != '=' {
			continue
		}
		n := k
		for n > from && paramByte(b[n-1]) {
			n--
		}
		v := k + 1
		for v < to && !bytes.ContainsRune([]byte(`&#;\`), rune(b[v])) {
			v++
		}
		if v > k+1 && secretParam(string(b[n:k])) && !bytes.HasPrefix(b[k+1:v], []byte(Mask[:len(Mask)-1])) {
			out = append(out, span{k + 1, v})
		}
		k = v - 1
	}
	return out
}

func paramByte(c byte) bool { return isWord(c) || c == '-' || c == '.' }

// secretParam reports whether a URL parameter's name says its value is a
// credential: access_token, token, key, api_key, sig, signature, secret,
// password, auth, X-Amz-Signature, X-Amz-Credential, ... (a name that is
// one of the words below, or holds token, secret, passw, signature,
// credential or apikey, or ends in _key or -key).
func secretParam(name string) bool {
	n := strings.ToLower(name)
	switch n {
	case "key", "sig", "auth", "pwd", "pass", "code_verifier":
		return true
	}
	for _, w := range []string{"token", "secret", "passw", "signature", "credential", "apikey", "api_key", "api-key"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return strings.HasSuffix(n, "_key") || strings.HasSuffix(n, "-key")
}

// urlQuerySecrets returns the values of a URL's secret parameters, as
// written and percent-decoded, for Add and AddURL.
func urlQuerySecrets(raw string) []string {
	b := []byte(strings.TrimSpace(raw))
	q := bytes.IndexAny(b, "?#")
	if q < 0 {
		return nil
	}
	var out []string
	for _, s := range queryParamSpans(b, q, len(b), nil) {
		v := string(b[s.start:s.end])
		out = append(out, v, unescape(v))
	}
	return out
}
