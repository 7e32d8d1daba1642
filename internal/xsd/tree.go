package xsd

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// node is an element of a parsed document with where it starts.
type node struct {
	name     xml.Name
	attrs    []xml.Attr
	children []*node
	text     strings.Builder // the character data directly inside it
	at       pos
}

func (n *node) attr(local string) string {
	for _, a := range n.attrs {
		if a.Name.Space == "" && a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}

// onlyAttrs fails on a schema element attribute this package does not
// read, so that nothing in a schema is ignored unseen.
func (n *node) onlyAttrs(allowed ...string) error {
	for _, a := range n.attrs {
		if a.Name.Space == "xmlns" || (a.Name.Space == "" && a.Name.Local == "xmlns") {
			continue
		}
		if a.Name.Space != "" || !slices.Contains(allowed, a.Name.Local) {
			return fmt.Errorf("%s: attribute %s of xs:%s is not supported by this validator", n.at, a.Name.Local, n.name.Local)
		}
	}
	return nil
}

// parseTree reads a whole XML document into nodes.
func parseTree(r io.Reader) (*node, error) {
	dec := xml.NewDecoder(r)
	var (
		root  *node
		stack []*node
	)
	for {
		line, col := dec.InputPos()
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			n := &node{name: t.Name, attrs: slices.Clone(t.Attr), at: pos{line, col}}
			if len(stack) == 0 {
				if root != nil {
					return nil, fmt.Errorf("%s: a second root element <%s>", n.at, t.Name.Local)
				}
				root = n
			} else {
				p := stack[len(stack)-1]
				p.children = append(p.children, n)
			}
			stack = append(stack, n)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 {
				stack[len(stack)-1].text.Write(t)
			} else if strings.TrimSpace(string(t)) != "" {
				return nil, fmt.Errorf("%d:%d: text outside the root element", line, col)
			}
		}
	}
	if root == nil {
		return nil, errors.New("no root element")
	}
	return root, nil
}
