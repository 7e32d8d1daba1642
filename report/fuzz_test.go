package report

import (
	"bytes"
	"encoding/xml"
	"io"
	"strings"
	"testing"
)

// FuzzRead feeds arbitrary bytes to the reader and every renderer: nothing
// may panic, and whatever was read must render.
func FuzzRead(f *testing.F) {
	s1, s2 := sampleLines(f)
	f.Add(strings.Join(s1, "\n"))
	f.Add(strings.Join(s2, "\n") + "\n" + s1[1])
	f.Add(`{"record":"plan","total_jobs":3}` + "\n" + `{"record":"job","id":"a/-/run-1","index":9}`)
	f.Add(`{"record":"job","id":"a/b/run-2","params":{"x":[1,{"y":null}]},"completed":true}` + "\n" + `{"record":"job","id":"a/b/run-2"}`)
	f.Add("\x00\xff{\n}\r\n[]")
	f.Fuzz(func(t *testing.T, data string) {
		in := Input{Name: "fuzz", R: strings.NewReader(data), Size: int64(len(data))}
		r, err := Read([]Input{in}, Options{MaxLineBytes: 4 << 10})
		if err != nil {
			return
		}
		s := r.Summary()
		var b bytes.Buffer
		if err := writeJUnit(&b, r); err != nil {
			t.Fatalf("junit: %v", err)
		}
		var doc xunitSuites
		if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
			t.Fatalf("junit is not well-formed: %v", err)
		}
		combos := 0
		for _, sc := range s.Scenarios {
			combos += len(sc.Combinations)
		}
		if len(doc.Suites) != combos {
			t.Fatalf("%d testsuites for %d combinations", len(doc.Suites), combos)
		}
		schema, err := junitSchema()
		if err != nil {
			t.Fatal(err)
		}
		if err := schema.Validate(bytes.NewReader(b.Bytes())); err != nil {
			t.Fatalf("junit is not valid against %s: %v", junitXSD, err)
		}
		for _, write := range []func(io.Writer) error{
			func(w io.Writer) error { return writeJSON(w, s) },
			func(w io.Writer) error { return writeMarkdown(w, s, nil) },
			func(w io.Writer) error { return writeHTML(w, r, WriteOptions{}) },
		} {
			b.Reset()
			if err := write(&b); err != nil {
				t.Fatalf("render: %v", err)
			}
		}
		if _, err := Compare(s, s, CompareOptions{}); err != nil {
			t.Fatalf("compare: %v", err)
		}
	})
}
