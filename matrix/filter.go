package matrix

import (
	"errors"
	"fmt"
	"strings"

	"github.com/agenteval/agenteval/scenario"
)

// Filter keeps the jobs whose parameter at Path has Value. Values compare as
// YAML values (after YAML 1.2 reading, by their canonical JSON), so
// max_turns=3 matches the number 3 but not the text "3", and name="Test A"
// and name=Test A both match the text Test A. Several filters all must hold.
type Filter struct {
	// Path is the parameter, which must be one of the matrix's axes.
	Path scenario.Path
	// Value is the wanted value as plain YAML data.
	Value any
	// Text is the filter as written, for messages.
	Text string

	canon string
}

// String returns the filter as written.
func (f Filter) String() string { return f.Text }

// parseFilter parses "path=value", as given to --filter. The path has the
// syntax of parseFullPath (its quoted keys may contain '='); the value is one
// YAML value: a scalar, or a flow list or mapping such as [a, b].
func parseFilter(text string) (Filter, error) {
	p, end, err := parsePath(text, true)
	if err != nil {
		var pe *pathError
		if errors.As(err, &pe) {
			return Filter{}, fmt.Errorf("filter %q: at character %d: %s", text, pe.Column, pe.Message)
		}
		return Filter{}, fmt.Errorf("filter %q: %w", text, err)
	}
	if end >= len(text) || text[end] != '=' {
		if end >= len(text) {
			return Filter{}, fmt.Errorf("filter %q: want path=value, such as run[0].conversation.max_turns=3", text)
		}
		return Filter{}, fmt.Errorf("filter %q: at character %d: unexpected %s; want path=value", text, errAt(text, end, "").Column, describe(text, end))
	}
	raw := text[end+1:]
	if strings.TrimSpace(raw) == "" {
		return Filter{}, fmt.Errorf("filter %q: the value is missing; write %s=\"\" to match empty text", text, p)
	}
	doc, diags := scenario.ParseDocument("--filter", []byte(raw), scenario.Limits{MaxBytes: 1 << 16})
	if errs := diags.Errors(); len(errs) > 0 || doc == nil {
		msg := "not a YAML value"
		if len(errs) > 0 {
			msg = errs[0].Message
		}
		return Filter{}, fmt.Errorf("filter %q: value %q: %s", text, raw, msg)
	}
	c, err := canonicalJSON(doc.Value)
	if err != nil {
		return Filter{}, fmt.Errorf("filter %q: %w", text, err)
	}
	return Filter{Path: p, Value: doc.Value, Text: text, canon: string(c)}, nil
}

// ParseFilters parses each text with parseFilter.
func ParseFilters(texts []string) ([]Filter, error) {
	out := make([]Filter, 0, len(texts))
	for _, t := range texts {
		f, err := parseFilter(t)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}
