package xsd

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/internal/testtool"
)

// shop is a schema that uses every construct the package implements.
const shop = `<?xml version="1.0"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
  <xs:simpleType name="SKU">
    <xs:restriction base="xs:string">
      <xs:pattern value="[A-Z]{2}-\d{3}"/>
      <xs:pattern value="none"/>
    </xs:restriction>
  </xs:simpleType>
  <xs:simpleType name="Size">
    <xs:restriction base="xs:string">
      <xs:enumeration value="S"/>
      <xs:enumeration value="M"/>
    </xs:restriction>
  </xs:simpleType>
  <xs:simpleType name="Money">
    <xs:restriction base="xs:string">
      <xs:pattern value="$?[0-9]+(\.[0-9]{2})?"/>
    </xs:restriction>
  </xs:simpleType>
  <xs:complexType name="lineType" mixed="true">
    <xs:sequence>
      <xs:element name="note" type="xs:string" minOccurs="0" maxOccurs="2"/>
    </xs:sequence>
    <xs:attribute name="sku" type="SKU" use="required"/>
    <xs:attribute name="size" type="Size"/>
    <xs:attribute name="price" type="Money"/>
  </xs:complexType>
  <xs:element name="line" type="lineType"/>
  <xs:element name="gift"/>
  <xs:element name="order">
    <xs:complexType>
      <xs:sequence>
        <xs:element name="customer" type="xs:string"/>
        <xs:choice minOccurs="1" maxOccurs="unbounded">
          <xs:element ref="line"/>
          <xs:element ref="gift"/>
        </xs:choice>
        <xs:element name="total" minOccurs="0">
          <xs:complexType>
            <xs:attribute name="value" use="required"/>
          </xs:complexType>
        </xs:element>
      </xs:sequence>
      <xs:attribute name="id" type="xs:string" use="required"/>
    </xs:complexType>
  </xs:element>
</xs:schema>
`

func TestValidate(t *testing.T) {
	t.Parallel()
	s, err := Load(strings.NewReader(shop))
	require.NoError(t, err)
	lint := xmllint(t, shop)
	for _, tc := range []struct {
		name, doc string
		want      []string // substrings of the error; none: valid
	}{
		{"minimal", `<order id="1"><customer>Ada</customer><line sku="AB-123"/></order>`, nil},
		{"everything", `<?xml version="1.0"?>
<!-- a comment -->
<order id="1" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:noNamespaceSchemaLocation="shop.xsd">
  <customer>Ada <![CDATA[<Lovelace>]]></customer>
  <line sku="AB-123" size="M" price="$10.50">two <note>gift wrap</note> of them <note>fast</note></line>
  <gift><anything at="all">goes <here/></anything></gift>
  <line sku="none"/>
  <total value="whatever"/>
</order>`, nil},
		{"unicode digits are digits", `<order id="1"><customer/><line sku="AB-١٢٣"/></order>`, nil},
		{"any global element is a root", `<line sku="AB-123"/><!-- fine -->`, nil},
		{"unknown root", `<cart/>`, []string{"1:1: <cart>: no global element declaration; the root must be one of gift, line, order"}},
		{"namespaced root", `<order xmlns="urn:x" id="1"><customer/><line sku="none"/></order>`, []string{`element in namespace "urn:x"`}},
		{"missing required attribute", `<order><customer/><line sku="none"/></order>`, []string{"1:1: <order>: required attribute id is missing"}},
		{"undeclared attribute", `<order id="1" when="now"><customer/><line sku="none"/></order>`, []string{"attribute when is not declared (allowed: id)"}},
		{"pattern is anchored", `<order id="1"><customer/><line sku="xAB-123"/></order>`, []string{`attribute sku: "xAB-123" does not match the pattern of type SKU`}},
		{"dollar is literal", `<order id="1"><customer/><line sku="none" price="10.5"/></order>`, []string{`attribute price: "10.5" does not match`}},
		{"enumeration", `<order id="1"><customer/><line sku="none" size="XL"/></order>`, []string{`"XL" is not one of S, M (type Size)`}},
		{"first in sequence missing", `<order id="1"><line sku="none"/></order>`, []string{"1:15: <line>: not allowed here in <order>; expected one of <customer>"}},
		{"choice needs one", `<order id="1"><customer/></order>`, []string{"1:1: <order>: content ends too early; expected one of <gift>, <line>"}},
		{"maxOccurs bounded", `<order id="1"><customer/><line sku="none"><note/><note/><note/></line></order>`, []string{"<note>: not allowed here in <line>; expected the end of the element"}},
		{"order of sequence", `<order id="1"><customer/><total value="1"/><line sku="none"/></order>`, []string{"1:26: <total>: not allowed here in <order>; expected one of <gift>, <line>"}},
		{"too many", `<order id="1"><customer/><line sku="none"/><customer/></order>`, []string{"<customer>: not allowed here in <order>; expected one of <gift>, <line>, <total> or the end of the element"}},
		{"text in element-only content", `<order id="1">hello<customer/><line sku="none"/></order>`, []string{"text is not allowed here"}},
		{"child in simple content", `<order id="1"><customer><b/></customer><line sku="none"/></order>`, []string{"child element not allowed: <customer> has simple content"}},
		{"attribute on simple content", `<order id="1"><customer x="1"/><line sku="none"/></order>`, []string{"attribute x is not allowed"}},
		{"empty content", `<order id="1"><customer/><line sku="none"/><total value="1"><x/></total></order>`, []string{"no child elements allowed in <total>"}},
		{"several at once", `<order><customer/><line/></order>`, []string{"required attribute id is missing", "required attribute sku is missing"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := s.Validate(strings.NewReader(tc.doc))
			if len(tc.want) == 0 {
				assert.NoError(t, err)
			} else {
				require.Error(t, err)
				for _, w := range tc.want {
					assert.Contains(t, err.Error(), w)
				}
			}
			if lint != nil {
				assert.Equal(t, err == nil, lint(t, tc.doc), "xmllint disagrees (ours: %v)", err)
			}
		})
	}
}

func TestValidateMalformed(t *testing.T) {
	t.Parallel()
	s, err := Load(strings.NewReader(shop))
	require.NoError(t, err)
	for _, doc := range []string{"", "<order", "<order></line>", "<a/><b/>", "x<a/>"} {
		assert.Error(t, s.Validate(strings.NewReader(doc)), "%q", doc)
	}
}

func TestValidateCapsViolations(t *testing.T) {
	t.Parallel()
	s, err := Load(strings.NewReader(shop))
	require.NoError(t, err)
	doc := `<order id="1"><customer/>` + strings.Repeat(`<line/>`, 80) + `</order>`
	err = s.Validate(strings.NewReader(doc))
	require.Error(t, err)
	assert.Equal(t, maxViolations+1, strings.Count(err.Error(), "\n")+1)
	assert.Contains(t, err.Error(), "… and 30 more violation(s)")
}

func TestLoadRefusesWhatItDoesNotImplement(t *testing.T) {
	t.Parallel()
	wrap := func(body string) string {
		return `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">` + body + `</xs:schema>`
	}
	for _, tc := range []struct{ schema, want string }{
		{wrap(`<xs:element name="a"><xs:complexType><xs:all/></xs:complexType></xs:element>`), "xs:all is not supported"},
		{wrap(`<xs:element name="a"><xs:complexType><xs:sequence><xs:any/></xs:sequence></xs:complexType></xs:element>`), "xs:any is not supported"},
		{wrap(`<xs:element name="a"><xs:complexType><xs:anyAttribute/></xs:complexType></xs:element>`), "xs:anyAttribute is not supported"},
		{wrap(`<xs:element name="a"><xs:complexType><xs:complexContent/></xs:complexType></xs:element>`), "xs:complexContent is not supported"},
		{wrap(`<xs:group name="g"/>`), "xs:group is not supported"},
		{wrap(`<xs:element name="a" nillable="true"/>`), "attribute nillable of xs:element is not supported"},
		{wrap(`<xs:element name="a"><xs:complexType><xs:attribute name="x" default="1"/></xs:complexType></xs:element>`), "attribute default of xs:attribute is not supported"},
		{wrap(`<xs:element name="a" type="xs:int"/>`), "built-in type xs:int is not supported"},
		{wrap(`<xs:element name="a" type="T"/>`), "undeclared simple type T"},
		{wrap(`<xs:element name="a"><xs:complexType><xs:sequence><xs:element ref="b"/></xs:sequence></xs:complexType></xs:element>`), "reference to undeclared element b"},
		{wrap(`<xs:simpleType name="T"><xs:restriction base="xs:string"><xs:pattern value="\i+"/></xs:restriction></xs:simpleType>`), `\i (XML name characters) is not supported`},
		{wrap(`<xs:simpleType name="T"><xs:restriction base="xs:string"><xs:pattern value="[a-z-[aeiou]]"/></xs:restriction></xs:simpleType>`), "character class subtraction is not supported"},
		{wrap(`<xs:simpleType name="T"><xs:restriction base="xs:string"><xs:minLength value="1"/></xs:restriction></xs:simpleType>`), "xs:minLength is not supported"},
		{wrap(`<xs:simpleType name="T"><xs:restriction base="T"/></xs:simpleType>`), "simple type T derives from itself"},
		{wrap(`<xs:element name="a"><xs:complexType><xs:sequence maxOccurs="2000"/></xs:complexType></xs:element>`), `maxOccurs="2000"`},
		{wrap(`<xs:element name="a"><xs:complexType><xs:sequence minOccurs="2" maxOccurs="1"/></xs:complexType></xs:element>`), "maxOccurs 1 is below minOccurs 2"},
		{wrap(`<xs:element name="a"/><xs:element name="a"/>`), "element a is declared twice"},
		{`<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:x"/>`, "only schemas without a target namespace"},
		{`<schema/>`, "not xs:schema"},
		{`<xs:schema`, "xsd: "},
	} {
		_, err := Load(strings.NewReader(tc.schema))
		if assert.Error(t, err, tc.schema) {
			assert.Contains(t, err.Error(), tc.want)
		}
	}
}

func TestTranslateRegexp(t *testing.T) {
	t.Parallel()
	for x, want := range map[string]string{
		`a^b$`:       `a\^b\$`,
		`[^a-z]+`:    `[^a-z]+`,
		`\d\D.`:      `\p{Nd}\P{Nd}[^\n\r]`,
		`[.^]`:       `[.^]`,
		`\p{Lu}\.`:   `\p{Lu}\.`,
		`\s[\s\d]\w`: `[ \t\n\r][ \t\n\r\p{Nd}][^\p{P}\p{Z}\p{C}]`,
	} {
		got, err := translateRegexp(x)
		require.NoError(t, err, x)
		assert.Equal(t, want, got, x)
	}
	for _, bad := range []string{`a\`, `[a`, `\c`, `\p{IsBasicLatin}`, `\$`, `[\w]`} {
		_, err := translateRegexp(bad)
		assert.Error(t, err, bad)
	}
}

// xmllint returns a function that asks xmllint whether a document is valid
// against schema, or nil when xmllint is not installed.
func xmllint(t *testing.T, schema string) func(*testing.T, string) bool {
	t.Helper()
	bin := testtool.Optional(t, "xmllint")
	if bin == "" {
		return nil
	}
	dir := t.TempDir()
	xsdPath := filepath.Join(dir, "schema.xsd")
	require.NoError(t, os.WriteFile(xsdPath, []byte(schema), 0o644))
	return func(t *testing.T, doc string) bool {
		p := filepath.Join(t.TempDir(), "doc.xml")
		require.NoError(t, os.WriteFile(p, []byte(doc), 0o644))
		out, err := exec.Command(bin, "--noout", "--nonet", "--schema", xsdPath, p).CombinedOutput()
		if err != nil {
			var exit *exec.ExitError
			require.ErrorAs(t, err, &exit, string(out))
			t.Logf("xmllint: %s", out)
		}
		return err == nil
	}
}
