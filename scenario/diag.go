package scenario

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Severity says whether a diagnostic stops a file from loading.
type Severity int

const (
	// Error means the file cannot be used as written.
	Error Severity = iota
	// Warning points at something suspicious that still loads.
	Warning
)

// String returns "error" or "warning".
func (s Severity) String() string {
	if s == Warning {
		return "warning"
	}
	return "error"
}

// MarshalText writes the severity as its name.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads "error" or "warning", so that a program can read back
// what `agenteval validate --format json` prints.
func (s *Severity) UnmarshalText(b []byte) error {
	switch string(b) {
	case "error":
		*s = Error
	case "warning":
		*s = Warning
	default:
		return fmt.Errorf("scenario: unknown severity %q; want error or warning", b)
	}
	return nil
}

// Diagnostic is one finding about a file, positioned at the text a person
// must edit.
type Diagnostic struct {
	// File is the file's name as given to the loader.
	File string `json:"file"`
	// Line and Column are 1-based; 0 when the finding concerns the whole file.
	Line   int `json:"line"`
	Column int `json:"column"`
	// Path is the field path, such as run[0].evaluations[2].type (in JSON,
	// that text); empty for the whole document.
	Path Path `json:"path"`
	// Severity is error or warning.
	Severity Severity `json:"severity"`
	// Code names the rule that fired (unknown-field, enum, required, type, range, ...), for programs.
	Code string `json:"code"`
	// Message says what is wrong and what was expected.
	Message string `json:"message"`
	// Suggestion is the nearest valid name, when there is one.
	Suggestion string `json:"suggestion,omitempty"`
}

// String formats the diagnostic as FILE:LINE:COL: severity: path: message.
func (d Diagnostic) String() string {
	var b strings.Builder
	b.WriteString(d.File)
	if d.Line > 0 {
		fmt.Fprintf(&b, ":%d:%d", d.Line, d.Column)
	}
	fmt.Fprintf(&b, ": %s: ", d.Severity)
	if len(d.Path) > 0 {
		b.WriteString(d.Path.String())
		b.WriteString(": ")
	}
	b.WriteString(d.Message)
	if d.Suggestion != "" {
		fmt.Fprintf(&b, " (did you mean %q?)", d.Suggestion)
	}
	return b.String()
}

// Diagnostics is a list of findings. As an error it reads as its first error
// and a count of the rest; a list of warnings only (which the loader never
// returns as an error) reads as its first warning, so it never claims to be
// an error that says "no errors".
type Diagnostics []Diagnostic

// Error implements error.
func (ds Diagnostics) Error() string {
	list, what := ds.Errors(), "errors"
	if len(list) == 0 {
		list, what = ds, "warnings"
	}
	switch len(list) {
	case 0:
		return "no diagnostics"
	case 1:
		return list[0].String()
	}
	return fmt.Sprintf("%s (and %d more %s)", list[0], len(list)-1, what)
}

// HasErrors reports whether any diagnostic is an error.
func (ds Diagnostics) HasErrors() bool {
	return slices.ContainsFunc(ds, func(d Diagnostic) bool { return d.Severity == Error })
}

// Errors returns the error diagnostics.
func (ds Diagnostics) Errors() Diagnostics {
	return slices.DeleteFunc(slices.Clone(ds), func(d Diagnostic) bool { return d.Severity != Error })
}

// Err returns ds as an error when it holds an error, and nil otherwise.
func (ds Diagnostics) err() error {
	if ds.HasErrors() {
		return ds
	}
	return nil
}

// Sort orders the diagnostics by file, line, column and path, and drops exact repeats.
func (ds Diagnostics) Sort() Diagnostics {
	slices.SortStableFunc(ds, func(a, b Diagnostic) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column),
			cmp.Compare(a.Path.String(), b.Path.String()), cmp.Compare(a.Message, b.Message))
	})
	return slices.CompactFunc(ds, func(a, b Diagnostic) bool {
		return a.File == b.File && a.Line == b.Line && a.Column == b.Column && slices.Equal(a.Path, b.Path) &&
			a.Severity == b.Severity && a.Code == b.Code && a.Message == b.Message && a.Suggestion == b.Suggestion
	})
}

// Path is a field path into a document, built top-down like
// k8s.io/apimachinery's field.Path: run[0].evaluations[2].type. Keys that
// are not plain identifiers print quoted: setup.virtual_fs["data.json"].
type Path []PathElem

// PathElem is one step of a Path: a mapping key, or an index when IsIndex.
type PathElem struct {
	Key     string
	Index   int
	IsIndex bool
}

// Key returns a path with a mapping key appended. The receiver is not modified.
func (p Path) Key(k string) Path { return append(p[:len(p):len(p)], PathElem{Key: k}) }

// Index returns a path with a sequence index appended. The receiver is not modified.
func (p Path) Index(i int) Path { return append(p[:len(p):len(p)], PathElem{Index: i, IsIndex: true}) }

// String renders the path in dotted form.
func (p Path) String() string {
	var b strings.Builder
	for i, e := range p {
		switch {
		case e.IsIndex:
			fmt.Fprintf(&b, "[%d]", e.Index)
		case isIdent(e.Key):
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(e.Key)
		default:
			fmt.Fprintf(&b, "[%q]", e.Key)
		}
	}
	return b.String()
}

// MarshalText writes the path as String does, so that a Diagnostic's
// path reads the same in JSON as in text.
func (p Path) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText reads a path as String writes it (run[0].evaluations[2].type,
// setup.virtual_fs["data.json"]), so that a program can read back what
// `agenteval validate --format json` prints.
func (p *Path) UnmarshalText(b []byte) error {
	s := string(b)
	var out Path
	for i := 0; i < len(s); {
		switch {
		case s[i] == '[' && i+1 < len(s) && s[i+1] == '"':
			q, err := strconv.QuotedPrefix(s[i+1:])
			if err != nil || !strings.HasPrefix(s[i+1+len(q):], "]") {
				return fmt.Errorf("scenario: path %q: a quoted key at byte %d is not closed", s, i)
			}
			k, _ := strconv.Unquote(q)
			out = append(out, PathElem{Key: k})
			i += 1 + len(q) + 1
		case s[i] == '[':
			end := strings.IndexByte(s[i:], ']')
			n, ok := -1, false
			if end > 0 {
				n, ok = atoi(s[i+1 : i+end])
			}
			if !ok {
				return fmt.Errorf("scenario: path %q: want an index or a quoted key at byte %d", s, i)
			}
			out = append(out, PathElem{Index: n, IsIndex: true})
			i += end + 1
		default:
			if s[i] == '.' && len(out) > 0 {
				i++
			}
			end := i
			for end < len(s) && s[end] != '.' && s[end] != '[' {
				end++
			}
			if !isIdent(s[i:end]) {
				return fmt.Errorf("scenario: path %q: want a field name at byte %d", s, i)
			}
			out = append(out, PathElem{Key: s[i:end]})
			i = end
		}
	}
	*p = out
	return nil
}

// isIdent reports whether s is an identifier that needs no quoting in a path.
func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_' || r == '$' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z'):
		case i > 0 && r >= '0' && r <= '9':
		default:
			return false
		}
	}
	return true
}

func atoi(s string) (int, bool) {
	if s == "" || len(s) > 9 {
		return 0, false
	}
	n := 0
	for _, r := range s {
		if r < '0' || r > '9' {
			return 0, false
		}
		n = n*10 + int(r-'0')
	}
	return n, true
}
