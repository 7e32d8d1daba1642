package scenario

import (
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/agenteval/agenteval/internal/schemacheck"
	"github.com/agenteval/agenteval/internal/textdist"
)

// schemaDiagnostics flattens a validation error tree into positioned
// diagnostics: one per leaf, unknown fields at their keys, enum mistakes with
// the nearest valid value, and only the relevant branch of string-or-object
// unions. prefix locates the validated instance in the document (nil: the
// whole document).
func schemaDiagnostics(doc *Document, schemaDoc map[string]any, prefix []string, ve *schemacheck.Error) Diagnostics {
	var out Diagnostics
	add := func(p Path, atKey bool, code, msg, suggestion string, sev Severity) {
		d := Diagnostic{File: doc.File, Path: p.String(), Severity: sev, Code: code, Message: msg, Suggestion: suggestion}
		if doc.root != nil {
			if atKey {
				d.Line, d.Column, _ = doc.LocateKey(p)
			} else {
				d.Line, d.Column, _ = doc.Locate(p)
			}
		}
		out = append(out, d)
	}
	var walk func(e *schemacheck.Error)
	walk = func(e *schemacheck.Error) {
		loc := e.InstanceLocation
		if len(prefix) > 0 {
			loc = append(slices.Clip(prefix), loc...)
		}
		p := doc.pathOf(loc)
		switch k := e.Kind.(type) {
		case *schemacheck.OneOf, *schemacheck.AnyOf:
			// A union of different JSON types (name-or-object, number-or-string):
			// report the branch whose type matched, if one did.
			var typed []*schemacheck.Error
			for _, c := range e.Causes {
				if _, isType := c.Kind.(*schemacheck.Type); !isType {
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
				if t, ok := c.Kind.(*schemacheck.Type); ok {
					want = append(want, t.Want...)
				}
			}
			add(p, false, "type", fmt.Sprintf("got %s, want %s", jsonTypeName(valueAt(doc.Value, loc)), strings.Join(uniq(want), " or ")), "", Error)
			return
		case *schemacheck.AdditionalProperties:
			allowed := schemaProperties(schemaDoc, e.SchemaLocation)
			for _, name := range k.Properties {
				msg := fmt.Sprintf("unknown field %q", name)
				if len(allowed) > 0 && len(allowed) <= 12 {
					msg += "; this object takes " + strings.Join(allowed, ", ")
				}
				add(p.Key(name), true, "unknown-field", msg, textdist.Suggest(name, allowed), Warning)
			}
			return
		case *schemacheck.Required:
			for _, name := range k.Missing {
				add(p.Key(name), false, "required", fmt.Sprintf("missing required field %q", name), "", Error)
			}
			return
		case *schemacheck.Enum:
			var want []string
			for _, w := range k.Want {
				want = append(want, fmt.Sprint(w))
			}
			got := fmt.Sprint(k.Got)
			msg := fmt.Sprintf("%q is not one of %s", got, strings.Join(want, ", "))
			add(p, false, "enum", msg, textdist.Suggest(got, want), Error)
			return
		case *schemacheck.Type:
			add(p, false, "type", fmt.Sprintf("got %s, want %s", k.Got, strings.Join(k.Want, " or ")), "", Error)
			return
		case *schemacheck.Minimum:
			add(p, false, "range", fmt.Sprintf("%s is below the minimum %s", ratString(k.Got), ratString(k.Want)), "", Error)
			return
		case *schemacheck.Maximum:
			add(p, false, "range", fmt.Sprintf("%s is above the maximum %s", ratString(k.Got), ratString(k.Want)), "", Error)
			return
		case *schemacheck.Pattern:
			add(p, false, "pattern", fmt.Sprintf("%q does not match the pattern %s", k.Got, k.Want), "", Error)
			return
		case *schemacheck.MinItems:
			add(p, false, "range", fmt.Sprintf("needs at least %d item(s), has %d", k.Want, k.Got), "", Error)
			return
		case *schemacheck.MaxItems:
			add(p, false, "range", fmt.Sprintf("takes at most %d item(s), has %d", k.Want, k.Got), "", Error)
			return
		case *schemacheck.MinLength:
			add(p, false, "range", lengthBelow(k.Want, k.Got), "", Error)
			return
		case *schemacheck.MaxLength:
			add(p, false, "range", fmt.Sprintf("takes at most %d character(s), has %d", k.Want, k.Got), "", Error)
			return
		}
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				walk(c)
			}
			return
		}
		add(p, false, "schema", e.Kind.String(), "", Error)
	}
	walk(ve)
	return out
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
