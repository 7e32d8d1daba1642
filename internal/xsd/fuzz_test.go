package xsd

import (
	"os"
	"strings"
	"testing"
)

// FuzzValidate feeds arbitrary documents to the shop schema: Validate must
// return, never panic, whatever the input.
func FuzzValidate(f *testing.F) {
	s, err := Load(strings.NewReader(shop))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(`<order id="1"><customer>Ada</customer><line sku="AB-123"><note/></line><gift/></order>`)
	f.Add(`<order><line/><total value=""/></order>`)
	f.Fuzz(func(t *testing.T, doc string) {
		_ = s.Validate(strings.NewReader(doc))
	})
}

// FuzzLoad feeds arbitrary schemas to Load, which must fail cleanly.
func FuzzLoad(f *testing.F) {
	f.Add(shop)
	if b, err := os.ReadFile("../../report/testdata/junit-10.xsd"); err == nil {
		f.Add(string(b))
	}
	f.Fuzz(func(t *testing.T, schema string) {
		s, err := Load(strings.NewReader(schema))
		if err == nil {
			_ = s.Validate(strings.NewReader(`<a x="1"><b/>text</a>`))
		}
	})
}
