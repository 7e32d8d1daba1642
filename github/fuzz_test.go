package github

import (
	"encoding/json"
	"errors"
	"testing"
)

// FuzzParseInput feeds arbitrary JSON objects to the input parser of a task
// with every parameter kind: it must never panic, and it either accepts the
// input with values of the declared kinds or returns an input Error.
func FuzzParseInput(f *testing.F) {
	for _, seed := range []string{
		`{"owner":"acme","name":"demo","prNumber":3}`,
		`{"owner":"acme","repo":"demo","pr_number":"42"}`,
		`{"repo":"acme/demo","pr_number":42.0,"first":1e2,"after":null}`,
		`{"owner":"acme","name":"demo","prNumber":-1}`,
		`{"owner":"acme","name":"demo","prNumber":1.5,"unresolvedOnly":"true"}`,
		`{"owner":"acme","name":"demo","prNumber":9007199254740993}`,
		`{"owner":"","name":"demo","prNumber":"0x10"}`,
		`{"owner":"acme","name":"demo","workflowId":"ci.yml"}`,
	} {
		f.Add([]byte(seed))
	}
	reg := newRegistry()
	tasks := []string{"pr.threads.list", "workflow.view", "issue.comments.list"}
	f.Fuzz(func(t *testing.T, data []byte) {
		var input map[string]any
		if json.Unmarshal(data, &input) != nil {
			return
		}
		for _, name := range tasks {
			def, err := reg.lookup(name)
			if err != nil {
				t.Fatal(err)
			}
			in, err := parseInput(name, def.params, input)
			if err != nil {
				var ie *Error
				if !errors.As(err, &ie) || !errors.Is(err, ErrInvalidInput) {
					t.Fatalf("%s: error %v is not an input Error", name, err)
				}
				continue
			}
			for _, p := range def.params {
				v, ok := in[p.name]
				if !ok {
					if p.required {
						t.Fatalf("%s: required %s missing from accepted input", name, p.name)
					}
					continue
				}
				switch p.kind {
				case kindInt:
					if n, ok := v.(int); !ok || n < 1 {
						t.Fatalf("%s: %s = %#v, want a positive int", name, p.name, v)
					}
				case kindString, kindCursor:
					if _, ok := v.(string); !ok {
						t.Fatalf("%s: %s = %#v, want a string", name, p.name, v)
					}
				case kindBool:
					if _, ok := v.(bool); !ok {
						t.Fatalf("%s: %s = %#v, want a bool", name, p.name, v)
					}
				case kindStringOrInt:
					switch v.(type) {
					case string, int:
					default:
						t.Fatalf("%s: %s = %#v, want a string or int", name, p.name, v)
					}
				}
			}
		}
	})
}
