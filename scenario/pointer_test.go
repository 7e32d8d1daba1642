package scenario

import (
	"fmt"
	"strings"
)

// Paths as RFC 6901 JSON pointers, for the tests that check their round
// trip: no code of the package needs them any more (diagnostics print
// Path.String).

// pointer renders the path as an RFC 6901 JSON pointer.
func (p Path) pointer() string {
	var b strings.Builder
	for _, e := range p {
		b.WriteByte('/')
		if e.IsIndex {
			fmt.Fprintf(&b, "%d", e.Index)
		} else {
			b.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(e.Key))
		}
	}
	return b.String()
}

// parsePointer turns an RFC 6901 JSON pointer into a Path; tokens made of
// digits become indexes.
func parsePointer(ptr string) Path {
	if ptr == "" {
		return nil // the whole document; "/" is the key "" (RFC 6901)
	}
	var p Path
	for _, tok := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
		if n, ok := atoi(tok); ok {
			p = p.Index(n)
		} else {
			p = p.Key(tok)
		}
	}
	return p
}
