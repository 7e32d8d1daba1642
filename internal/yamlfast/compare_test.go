package yamlfast

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"go.yaml.in/yaml/v3"
)

// decodeV3 parses data as scenario.ParseDocument does with yaml.v3: the
// first document, and whether a second Decode reports the end.
func decodeV3(data []byte) (doc *yaml.Node, err error, single bool) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var n yaml.Node
	if err := dec.Decode(&n); err != nil {
		return nil, err, false
	}
	var second yaml.Node
	err2 := dec.Decode(&second)
	return &n, nil, errors.Is(err2, io.EOF)
}

// diff describes the first difference between two trees on every field
// but the comments, or returns "".
func diff(want, got *yaml.Node, path string) string {
	if want == nil || got == nil {
		if want != got {
			return fmt.Sprintf("%s: want %v, got %v", path, want, got)
		}
		return ""
	}
	type fields struct {
		Kind         yaml.Kind
		Style        yaml.Style
		Tag, Value   string
		Anchor       string
		Line, Column int
		Content      int
		HasAlias     bool
	}
	w := fields{want.Kind, want.Style, want.Tag, want.Value, want.Anchor, want.Line, want.Column, len(want.Content), want.Alias != nil}
	g := fields{got.Kind, got.Style, got.Tag, got.Value, got.Anchor, got.Line, got.Column, len(got.Content), got.Alias != nil}
	if w != g {
		return fmt.Sprintf("%s:\n want %+v\n got  %+v", path, w, g)
	}
	for i := range want.Content {
		if d := diff(want.Content[i], got.Content[i], fmt.Sprintf("%s/%d", path, i)); d != "" {
			return d
		}
	}
	return ""
}

// dump renders a tree for failure messages.
func dump(n *yaml.Node) string {
	var b strings.Builder
	var walk func(n *yaml.Node, depth int)
	walk = func(n *yaml.Node, depth int) {
		fmt.Fprintf(&b, "%s%d %s %d %q %d:%d\n", strings.Repeat("  ", depth), n.Kind, n.Tag, n.Style, n.Value, n.Line, n.Column)
		for _, c := range n.Content {
			walk(c, depth+1)
		}
	}
	walk(n, 0)
	return b.String()
}
