package scenario

import (
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/agenteval/agenteval/internal/textdist"
)

// english prints the messages of the validator's error kinds that have no
// case of their own below.
var english = message.NewPrinter(language.English)

// schemaDiagnostics flattens a validation error tree into positioned
// diagnostics: one per leaf, unknown fields at their keys, enum mistakes with
// the nearest valid value, and only the relevant branch of string-or-object
// unions. prefix locates the validated instance in the document (nil: the
// whole document).
func schemaDiagnostics(doc *Document, schemaDoc map[string]any, prefix []string, ve *jsonschema.ValidationError) Diagnostics {
	var out Diagnostics
	add := func(p Path, atKey bool, code, msg, suggestion string, sev Severity) {
		d := Diagnostic{File: doc.File, Path: slices.Clone(p), Severity: sev, Code: code, Message: msg, Suggestion: suggestion}
		if doc.root != nil {
			if atKey {
				d.Line, d.Column, _ = doc.LocateKey(p)
			} else {
				d.Line, d.Column, _ = doc.Locate(p)
			}
		}
		out = append(out, d)
	}
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		loc := e.InstanceLocation
		if len(prefix) > 0 {
			loc = append(slices.Clip(prefix), loc...)
		}
		p := doc.pathOf(loc)
		switch k := e.ErrorKind.(type) {
		case *kind.OneOf, *kind.AnyOf:
			// A union of different JSON types (name-or-object, number-or-string):
			// report the branch whose type matched, if one did.
			var typed []*jsonschema.ValidationError
			for _, c := range e.Causes {
				if _, isType := c.ErrorKind.(*kind.Type); !isType {
					typed = append(typed, c)
				}
			}
			if len(typed) > 0 {
				for _, c := range typed {
					walk(c)
				}
				return
			}
			var want []string
			for _, c := range e.Causes {
				if t, ok := c.ErrorKind.(*kind.Type); ok {
					want = append(want, t.Want...)
				}
			}
			add(p, false, "type", fmt.Sprintf("got %s, want %s", jsonTypeName(valueAt(doc.Value, loc)), strings.Join(uniq(want), " or ")), "", Error)
			return
		case *kind.AdditionalProperties:
			allowed := schemaProperties(schemaDoc, fragment(e.SchemaURL))
			for _, name := range k.Properties {
				msg := fmt.Sprintf("unknown field %q", name)
				if len(allowed) > 0 && len(allowed) <= 12 {
					msg += "; this object takes " + strings.Join(allowed, ", ")
				}
				add(p.Key(name), true, "unknown-field", msg, textdist.Suggest(name, allowed), Warning)
			}
			return
		case *kind.Required:
			for _, name := range k.Missing {
				add(p.Key(name), false, "required", fmt.Sprintf("missing required field %q", name), "", Error)
			}
			return
		case *kind.Enum:
			var want []string
			for _, w := range k.Want {
				want = append(want, fmt.Sprint(w))
			}
			got := fmt.Sprint(k.Got)
			msg := fmt.Sprintf("%q is not one of %s", got, strings.Join(want, ", "))
			add(p, false, "enum", msg, textdist.Suggest(got, want), Error)
			return
		case *kind.Type:
			add(p, false, "type", fmt.Sprintf("got %s, want %s", k.Got, strings.Join(k.Want, " or ")), "", Error)
			return
		case *kind.Minimum:
			add(p, false, "range", fmt.Sprintf("%s is below the minimum %s", ratString(k.Got), ratString(k.Want)), "", Error)
			return
		case *kind.Maximum:
			add(p, false, "range", fmt.Sprintf("%s is above the maximum %s", ratString(k.Got), ratString(k.Want)), "", Error)
			return
		case *kind.Pattern:
			add(p, false, "pattern", fmt.Sprintf("%q does not match the pattern %s", k.Got, k.Want), "", Error)
			return
		case *kind.MinItems:
			add(p, false, "range", fmt.Sprintf("needs at least %d item(s), has %d", k.Want, k.Got), "", Error)
			return
		case *kind.MaxItems:
			add(p, false, "range", fmt.Sprintf("takes at most %d item(s), has %d", k.Want, k.Got), "", Error)
			return
		case *kind.MinLength:
			add(p, false, "range", lengthBelow(k.Want, k.Got), "", Error)
			return
		case *kind.MaxLength:
			add(p, false, "range", fmt.Sprintf("takes at most %d character(s), has %d", k.Want, k.Got), "", Error)
			return
		}
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				if k, ok := c.ErrorKind.(*kind.PropertyNames); ok {
					// santhosh keeps a refused field name's location in a
					// slice it goes on appending to: the length is right
					// but the last elements may name another field. Find
					// the object that holds the name at that depth below
					// this (rightly placed) error.
					relocate(c, nameHolder(doc.Value, prefix, e.InstanceLocation, len(c.InstanceLocation), k.Property))
				}
				walk(c)
			}
			return
		}
		add(p, false, "schema", e.ErrorKind.LocalizedString(english), "", Error)
	}
	walk(ve)
	return out
}

// nameHolder returns the location, depth elements long, of the object
// below at (a location under prefix in v) that has a field named name; at
// itself when there is not exactly one.
func nameHolder(v any, prefix, at []string, depth int, name string) []string {
	var found [][]string
	var walk func(v any, loc []string)
	walk = func(v any, loc []string) {
		if len(loc) == depth {
			if m, ok := v.(map[string]any); ok {
				if _, has := m[name]; has {
					found = append(found, slices.Clone(loc))
				}
			}
			return
		}
		switch c := v.(type) {
		case map[string]any:
			for k, e := range c {
				walk(e, append(loc, k))
			}
		case []any:
			for i, e := range c {
				walk(e, append(loc, strconv.Itoa(i)))
			}
		}
	}
	walk(valueAt(v, append(slices.Clip(prefix), at...)), slices.Clone(at))
	if len(found) != 1 {
		return at
	}
	return found[0]
}

// relocate places e and its causes at loc.
func relocate(e *jsonschema.ValidationError, loc []string) {
	e.InstanceLocation = loc
	for _, c := range e.Causes {
		relocate(c, loc)
	}
}

// fragment is the JSON pointer of a schema URL (after '#').
func fragment(url string) string {
	_, frag, _ := strings.Cut(url, "#")
	return frag
}

// lengthBelow says what a string shorter than minLength want lacks: for
// the usual minLength 1, that it is empty.
func lengthBelow(want, got int) string {
	if want <= 1 {
		return "must not be empty"
	}
	return fmt.Sprintf("needs at least %d character(s), has %d", want, got)
}

func ratString(r *big.Rat) string {
	if r == nil {
		return "?"
	}
	if r.IsInt() {
		return r.Num().String()
	}
	f, _ := r.Float64()
	return fmt.Sprint(f)
}

func uniq(ss []string) []string {
	slices.Sort(ss)
	return slices.Compact(ss)
}

func valueAt(v any, tokens []string) any {
	for _, t := range tokens {
		switch c := v.(type) {
		case map[string]any:
			v = c[t]
		case []any:
			i, ok := atoi(t)
			if !ok || i >= len(c) {
				return nil
			}
			v = c[i]
		default:
			return nil
		}
	}
	return v
}

func jsonTypeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	default:
		return "number"
	}
}
