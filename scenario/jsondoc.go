package scenario

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// looksLikeJSON reports whether data is one valid JSON value whose text
// starts with an object or an array. Such files are read by JSON's rules:
// YAML 1.2 is meant to be a superset of JSON, but a YAML parser rejects some
// valid JSON (the escape \/, escaped surrogate pairs such as \ud83d\ude00).
func looksLikeJSON(data []byte) bool {
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	return len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[') && json.Valid(data)
}

// jsonNodes builds the same node tree a YAML parser would give for valid
// JSON, with every node's line and column, so that positions work alike for
// both.
func jsonNodes(data []byte) (*yaml.Node, error) {
	b := jsonNodeBuilder{data: data, dec: json.NewDecoder(bytes.NewReader(data))}
	b.dec.UseNumber()
	n, err := b.value()
	if err != nil {
		return nil, err
	}
	return &yaml.Node{Kind: yaml.DocumentNode, Line: 1, Column: 1, Content: []*yaml.Node{n}}, nil
}

type jsonNodeBuilder struct {
	data []byte
	dec  *json.Decoder
	// line and lineStart track the line of the last position asked for;
	// positions are asked for in increasing order.
	line, lineStart, scanned int
}

// next returns the next token and the position where its text starts.
func (b *jsonNodeBuilder) next() (json.Token, int, int, error) {
	off := int(b.dec.InputOffset())
	for off < len(b.data) && strings.IndexByte(" \t\r\n:,", b.data[off]) >= 0 {
		off++
	}
	tok, err := b.dec.Token()
	if err != nil {
		return nil, 0, 0, err
	}
	line, col := b.pos(off)
	return tok, line, col, nil
}

func (b *jsonNodeBuilder) pos(off int) (line, col int) {
	if b.line == 0 {
		b.line = 1
	}
	for ; b.scanned < off; b.scanned++ {
		c := b.data[b.scanned]
		if c == '\n' || (c == '\r' && (b.scanned+1 == len(b.data) || b.data[b.scanned+1] != '\n')) {
			b.line++
			b.lineStart = b.scanned + 1
		}
	}
	return b.line, utf8.RuneCount(b.data[b.lineStart:off]) + 1
}

func (b *jsonNodeBuilder) value() (*yaml.Node, error) {
	tok, line, col, err := b.next()
	if err != nil {
		return nil, err
	}
	return b.node(tok, line, col)
}

func (b *jsonNodeBuilder) node(tok json.Token, line, col int) (*yaml.Node, error) {
	n := &yaml.Node{Line: line, Column: col}
	switch t := tok.(type) {
	case json.Delim:
		if t == '{' {
			n.Kind, n.Tag, n.Style = yaml.MappingNode, "!!map", yaml.FlowStyle
		} else {
			n.Kind, n.Tag, n.Style = yaml.SequenceNode, "!!seq", yaml.FlowStyle
		}
		for b.dec.More() {
			if n.Kind == yaml.MappingNode {
				k, kl, kc, err := b.next()
				if err != nil {
					return nil, err
				}
				key, _ := k.(string)
				n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Style: yaml.DoubleQuotedStyle, Value: key, Line: kl, Column: kc})
			}
			v, err := b.value()
			if err != nil {
				return nil, err
			}
			n.Content = append(n.Content, v)
		}
		if _, err := b.dec.Token(); err != nil { // the closing delimiter
			return nil, err
		}
	case string:
		n.Kind, n.Tag, n.Style, n.Value = yaml.ScalarNode, "!!str", yaml.DoubleQuotedStyle, t
	case json.Number:
		n.Kind, n.Tag, n.Value = yaml.ScalarNode, "!!int", string(t)
		if strings.ContainsAny(string(t), ".eE") {
			n.Tag = "!!float"
		}
	case bool:
		n.Kind, n.Tag, n.Value = yaml.ScalarNode, "!!bool", fmt.Sprint(t)
	case nil:
		n.Kind, n.Tag, n.Value = yaml.ScalarNode, "!!null", "null"
	default:
		return nil, fmt.Errorf("unexpected JSON token %v", tok)
	}
	return n, nil
}
