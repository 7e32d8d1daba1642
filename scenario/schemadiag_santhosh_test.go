package scenario

import (
	"fmt"
	"slices"
	"strings"

	"github.com/agenteval/agenteval/internal/textdist"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

var english = message.NewPrinter(language.English)

// santhoshDiagnostics is how the loader made diagnostics of
// santhosh-tekuri/jsonschema's error tree before it had its own validator,
// kept word for word as the oracle of the differential tests: our
// validator's diagnostics must equal these.
func santhoshDiagnostics(doc *Document, schemaDoc map[string]any, prefix []string, ve *jsonschema.ValidationError) Diagnostics {
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
				walk(c)
			}
			return
		}
		add(p, false, "schema", e.ErrorKind.LocalizedString(english), "", Error)
	}
	walk(ve)
	return out
}

func fragment(url string) string {
	_, frag, _ := strings.Cut(url, "#")
	return frag
}
