package schemacheck

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
)

// Error is one violation, or a keyword whose subschemas failed (Causes).
type Error struct {
	// InstanceLocation is the JSON pointer tokens of the value that failed.
	InstanceLocation []string
	// SchemaLocation is the JSON pointer of the schema node whose keyword
	// failed ("" for the root).
	SchemaLocation string
	// Kind says which keyword failed and what it found.
	Kind Kind
	// Causes are the failures beneath: a branch's, a reference's.
	Causes []*Error
}

func (e *Error) Error() string {
	var b strings.Builder
	e.write(&b, 0)
	return strings.TrimSuffix(b.String(), "\n")
}

func (e *Error) write(b *strings.Builder, depth int) {
	fmt.Fprintf(b, "%s%s: %s\n", strings.Repeat("  ", depth), pointer(e.InstanceLocation), e.Kind)
	for _, c := range e.Causes {
		c.write(b, depth+1)
	}
}

func pointer(tokens []string) string {
	if len(tokens) == 0 {
		return "/"
	}
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(escape(t))
	}
	return b.String()
}

// Kind is what failed. Its String is an English message in the words
// JSON Schema validators commonly use; callers with their own wording
// switch on the concrete type.
type Kind interface {
	// Keyword is the schema keyword that failed ("" for a group of
	// failures or a false schema).
	Keyword() string
	String() string
}

// Group holds the failures of one schema node on one value when there
// are several.
type Group struct{}

// Reference is a $ref whose target failed; Causes hold why.
type Reference struct{ Ref string }

// FalseSchema is a value where the schema is false.
type FalseSchema struct{}

// InvalidValue is a value with no JSON type (a NaN, a Go type other than
// the plain ones, a json.Number that is not a number).
type InvalidValue struct{ Value any }

// Type is a value of a type the schema does not allow.
type Type struct {
	Got  string
	Want []string
}

// Const is a value other than the one the schema allows.
type Const struct{ Got, Want any }

// Enum is a value not among those the schema allows.
type Enum struct {
	Got  any
	Want []any
}

// Required lists the required properties an object lacks.
type Required struct{ Missing []string }

// AdditionalProperties lists properties the schema does not allow.
type AdditionalProperties struct{ Properties []string }

// MinProperties is an object with too few properties.
type MinProperties struct{ Got, Want int }

// MaxProperties is an object with too many properties.
type MaxProperties struct{ Got, Want int }

// PropertyNames is a property whose name the propertyNames schema refuses;
// Causes hold why.
type PropertyNames struct{ Property string }

// DependentRequired lists properties an object lacks that Property's
// presence requires.
type DependentRequired struct {
	Property string
	Missing  []string
}

// MinItems is an array with too few items.
type MinItems struct{ Got, Want int }

// MaxItems is an array with too many items.
type MaxItems struct{ Got, Want int }

// UniqueItems is an array with two equal items, at these indexes.
type UniqueItems struct{ Duplicates [2]int }

// Contains is an array none of whose items the contains schema accepts;
// Causes hold each item's failure.
type Contains struct{}

// MinContains is an array with too few items the contains schema accepts.
type MinContains struct {
	Got  []int
	Want int
}

// MaxContains is an array with too many items the contains schema accepts.
type MaxContains struct {
	Got  []int
	Want int
}

// MinLength is a string with too few characters (Unicode code points).
type MinLength struct{ Got, Want int }

// MaxLength is a string with too many characters (Unicode code points).
type MaxLength struct{ Got, Want int }

// Pattern is a string the pattern does not match.
type Pattern struct{ Got, Want string }

// Minimum is a number below the minimum.
type Minimum struct{ Got, Want *big.Rat }

// Maximum is a number above the maximum.
type Maximum struct{ Got, Want *big.Rat }

// ExclusiveMinimum is a number not above the exclusive minimum.
type ExclusiveMinimum struct{ Got, Want *big.Rat }

// ExclusiveMaximum is a number not below the exclusive maximum.
type ExclusiveMaximum struct{ Got, Want *big.Rat }

// MultipleOf is a number that is not a multiple of Want.
type MultipleOf struct{ Got, Want *big.Rat }

// Not is a value the not schema accepts.
type Not struct{}

// AllOf is a value some allOf branch refuses; Causes hold the failures.
type AllOf struct{}

// AnyOf is a value every anyOf branch refuses; Causes hold each branch's
// failure.
type AnyOf struct{}

// OneOf is a value no oneOf branch accepts (Matched is nil; Causes hold
// each branch's failure), or two accept (Matched holds their indexes).
type OneOf struct{ Matched []int }

func (*Group) Keyword() string                { return "" }
func (*Reference) Keyword() string            { return "$ref" }
func (*FalseSchema) Keyword() string          { return "" }
func (*InvalidValue) Keyword() string         { return "" }
func (*Type) Keyword() string                 { return "type" }
func (*Const) Keyword() string                { return "const" }
func (*Enum) Keyword() string                 { return "enum" }
func (*Required) Keyword() string             { return "required" }
func (*AdditionalProperties) Keyword() string { return "additionalProperties" }
func (*MinProperties) Keyword() string        { return "minProperties" }
func (*MaxProperties) Keyword() string        { return "maxProperties" }
func (*PropertyNames) Keyword() string        { return "propertyNames" }
func (*DependentRequired) Keyword() string    { return "dependentRequired" }
func (*MinItems) Keyword() string             { return "minItems" }
func (*MaxItems) Keyword() string             { return "maxItems" }
func (*UniqueItems) Keyword() string          { return "uniqueItems" }
func (*Contains) Keyword() string             { return "contains" }
func (*MinContains) Keyword() string          { return "minContains" }
func (*MaxContains) Keyword() string          { return "maxContains" }
func (*MinLength) Keyword() string            { return "minLength" }
func (*MaxLength) Keyword() string            { return "maxLength" }
func (*Pattern) Keyword() string              { return "pattern" }
func (*Minimum) Keyword() string              { return "minimum" }
func (*Maximum) Keyword() string              { return "maximum" }
func (*ExclusiveMinimum) Keyword() string     { return "exclusiveMinimum" }
func (*ExclusiveMaximum) Keyword() string     { return "exclusiveMaximum" }
func (*MultipleOf) Keyword() string           { return "multipleOf" }
func (*Not) Keyword() string                  { return "not" }
func (*AllOf) Keyword() string                { return "allOf" }
func (*AnyOf) Keyword() string                { return "anyOf" }
func (*OneOf) Keyword() string                { return "oneOf" }

func (*Group) String() string       { return "validation failed" }
func (*Reference) String() string   { return "validation failed" }
func (*FalseSchema) String() string { return "false schema" }
func (k *InvalidValue) String() string {
	return fmt.Sprintf("invalid jsonType %T", k.Value)
}
func (k *Type) String() string {
	return fmt.Sprintf("got %s, want %s", k.Got, strings.Join(k.Want, " or "))
}
func (k *Const) String() string {
	switch k.Want.(type) {
	case []any, map[string]any:
		return "'const' failed"
	}
	return "value must be " + display(k.Want)
}
func (k *Enum) String() string {
	for _, w := range k.Want {
		switch w.(type) {
		case []any, map[string]any:
			return "'enum' failed"
		}
	}
	if len(k.Want) == 1 {
		return "value must be " + display(k.Want[0])
	}
	want := make([]string, len(k.Want))
	for i, w := range k.Want {
		want[i] = display(w)
	}
	return "value must be one of " + strings.Join(want, ", ")
}
func (k *Required) String() string {
	if len(k.Missing) == 1 {
		return "missing property " + quote(k.Missing[0])
	}
	return "missing properties " + joinQuoted(k.Missing)
}
func (k *AdditionalProperties) String() string {
	return "additional properties " + joinQuoted(k.Properties) + " not allowed"
}
func (k *MinProperties) String() string {
	return "minProperties: got " + englishInt(k.Got) + ", want " + englishInt(k.Want)
}
func (k *MaxProperties) String() string {
	return "maxProperties: got " + englishInt(k.Got) + ", want " + englishInt(k.Want)
}
func (k *PropertyNames) String() string { return "invalid propertyName " + quote(k.Property) }
func (k *DependentRequired) String() string {
	return fmt.Sprintf("properties %s required, if %s exists", joinQuoted(k.Missing), quote(k.Property))
}
func (k *MinItems) String() string {
	return "minItems: got " + englishInt(k.Got) + ", want " + englishInt(k.Want)
}
func (k *MaxItems) String() string {
	return "maxItems: got " + englishInt(k.Got) + ", want " + englishInt(k.Want)
}
func (k *UniqueItems) String() string {
	return "items at " + englishInt(k.Duplicates[0]) + " and " + englishInt(k.Duplicates[1]) + " are equal"
}
func (*Contains) String() string { return "no items match contains schema" }
func (k *MinContains) String() string {
	if len(k.Got) == 0 {
		return "min " + englishInt(k.Want) + " items required to match contains schema, but none matched"
	}
	return "min " + englishInt(k.Want) + " items required to match contains schema, but matched " + englishInt(len(k.Got)) + " items at " + ints(k.Got)
}
func (k *MaxContains) String() string {
	return "max " + englishInt(k.Want) + " items required to match contains schema, but matched " + englishInt(len(k.Got)) + " items at " + ints(k.Got)
}
func (k *MinLength) String() string {
	return "minLength: got " + englishInt(k.Got) + ", want " + englishInt(k.Want)
}
func (k *MaxLength) String() string {
	return "maxLength: got " + englishInt(k.Got) + ", want " + englishInt(k.Want)
}
func (k *Pattern) String() string {
	return quote(k.Got) + " does not match pattern " + quote(k.Want)
}
func (k *Minimum) String() string {
	return "minimum: got " + ratFloat(k.Got) + ", want " + ratFloat(k.Want)
}
func (k *Maximum) String() string {
	return "maximum: got " + ratFloat(k.Got) + ", want " + ratFloat(k.Want)
}
func (k *ExclusiveMinimum) String() string {
	return "exclusiveMinimum: got " + ratFloat(k.Got) + ", want " + ratFloat(k.Want)
}
func (k *ExclusiveMaximum) String() string {
	return "exclusiveMaximum: got " + ratFloat(k.Got) + ", want " + ratFloat(k.Want)
}
func (k *MultipleOf) String() string {
	return "multipleOf: got " + ratFloat(k.Got) + ", want " + ratFloat(k.Want)
}
func (*Not) String() string   { return "'not' failed" }
func (*AllOf) String() string { return "'allOf' failed" }
func (*AnyOf) String() string { return "'anyOf' failed" }
func (k *OneOf) String() string {
	if len(k.Matched) == 0 {
		return "'oneOf' failed, none matched"
	}
	return "'oneOf' failed, subschemas " + englishInt(k.Matched[0]) + ", " + englishInt(k.Matched[1]) + " matched"
}

// ratFloat is a number as the nearest float, written as englishNumber
// writes it.
func ratFloat(r *big.Rat) string {
	f, _ := r.Float64()
	return englishNumber(strconv.FormatFloat(f, 'g', -1, 64))
}

// englishInt is an integer with its digits grouped by thousands: 1,234.
func englishInt(n int) string { return englishNumber(strconv.Itoa(n)) }

// englishNumber rewrites a number as Go's %v writes it the way messages
// in English have written numbers since the validator this package
// replaced (through golang.org/x/text's message printer): the digits of the
// integer part grouped by thousands (1,234.5), and an exponent as a power
// of ten (1×10⁰⁶).
func englishNumber(s string) string {
	if mant, exp, ok := strings.Cut(s, "e"); ok {
		var b strings.Builder
		b.WriteString(mant)
		b.WriteString("×10")
		for _, c := range strings.TrimPrefix(exp, "+") {
			switch {
			case c == '-':
				b.WriteString("⁻")
			case c >= '0' && c <= '9':
				b.WriteString(superscripts[c-'0'])
			}
		}
		return b.String()
	}
	sign, digits := "", s
	if strings.HasPrefix(s, "-") {
		sign, digits = "-", s[1:]
	}
	whole, frac, hasFrac := strings.Cut(digits, ".")
	var b strings.Builder
	b.WriteString(sign)
	for i := range len(whole) {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteByte(whole[i])
	}
	if hasFrac {
		b.WriteByte('.')
		b.WriteString(frac)
	}
	return b.String()
}

var superscripts = [...]string{"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"}

func ints(is []int) string {
	s := fmt.Sprint(is)
	return s[1 : len(s)-1]
}

// quote is a string in single quotes, escaped as Go escapes it.
func quote(s string) string {
	q := fmt.Sprintf("%q", s)
	q = strings.ReplaceAll(q, `\"`, `"`)
	q = strings.ReplaceAll(q, `'`, `\'`)
	return "'" + q[1:len(q)-1] + "'"
}

func joinQuoted(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = quote(s)
	}
	return strings.Join(q, ", ")
}

// display is a primitive value as a message shows it.
func display(v any) string {
	switch x := v.(type) {
	case string:
		return quote(x)
	case []any, map[string]any:
		return "value"
	}
	return fmt.Sprint(v)
}
