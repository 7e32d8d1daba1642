package schemacheck

import (
	"slices"
	"strconv"
	"unicode/utf8"
)

// Validate checks a plain value (map[string]any, []any, string, bool,
// nil, json.Number or a Go number) against the schema. It returns nil or
// an *Error: one violation, or a Group whose Causes are several.
// Validating a valid value does not allocate.
func (s *Schema) Validate(v any) error {
	if s.valid(v) {
		return nil
	}
	if e := join(s, nil, s.check(v, nil)); e != nil {
		return e
	}
	return nil
}

// Valid reports whether v is valid, without building errors.
func (s *Schema) Valid(v any) bool { return s.valid(v) }

// join makes one error of a node's failures.
func join(s *Schema, loc []string, errs []*Error) *Error {
	switch len(errs) {
	case 0:
		return nil
	case 1:
		return errs[0]
	}
	return &Error{InstanceLocation: loc, SchemaLocation: s.Location, Kind: &Group{}, Causes: errs}
}

// valid is check without errors: the same rules, in the same order,
// stopping at the first failure.
func (s *Schema) valid(v any) bool {
	if s.boolean != nil {
		return *s.boolean
	}
	t := typeOf(v)
	if t == 0 {
		return false
	}
	if s.types != 0 && s.types&t == 0 && (s.types&typeInteger == 0 || t != typeNumber || !isInteger(v)) {
		return false
	}
	if s.hasConst && !equal(v, s.constVal) {
		return false
	}
	if s.hasEnum && !s.inEnum(v) {
		return false
	}
	if s.ref != nil && !s.ref.valid(v) {
		return false
	}
	switch x := v.(type) {
	case map[string]any:
		if !s.validObject(x) {
			return false
		}
	case []any:
		if !s.validArray(x) {
			return false
		}
	case string:
		if !s.validString(x) {
			return false
		}
	case bool, nil:
	default:
		if !s.validNumber(v) {
			return false
		}
	}
	if s.not != nil && s.not.valid(v) {
		return false
	}
	for _, x := range s.allOf {
		if !x.valid(v) {
			return false
		}
	}
	if len(s.anyOf) > 0 {
		matched := false
		for _, x := range s.anyOf {
			if x.valid(v) {
				matched = true
				break
			}
		}
		if !matched {
			return false
		}
	}
	if len(s.oneOf) > 0 {
		n := 0
		for _, x := range s.oneOf {
			if x.valid(v) {
				if n++; n > 1 {
					return false
				}
			}
		}
		if n == 0 {
			return false
		}
	}
	if s.ifS != nil {
		if s.ifS.valid(v) {
			if s.thenS != nil && !s.thenS.valid(v) {
				return false
			}
		} else if s.elsS != nil && !s.elsS.valid(v) {
			return false
		}
	}
	return true
}

func (s *Schema) inEnum(v any) bool {
	for _, w := range s.enum {
		if equal(v, w) {
			return true
		}
	}
	return false
}

func (s *Schema) validObject(obj map[string]any) bool {
	if s.minProperties != absent && len(obj) < s.minProperties {
		return false
	}
	if s.maxProperties != absent && len(obj) > s.maxProperties {
		return false
	}
	for _, name := range s.required {
		if _, ok := obj[name]; !ok {
			return false
		}
	}
	for name, val := range obj {
		evaluated := false
		if x, ok := s.properties[name]; ok {
			evaluated = true
			if !x.valid(val) {
				return false
			}
		}
		for _, p := range s.patternProperties {
			if p.re.MatchString(name) {
				evaluated = true
				if !p.schema.valid(val) {
					return false
				}
			}
		}
		if !evaluated {
			if s.additionalFalse {
				return false
			}
			if s.additional != nil && !s.additional.valid(val) {
				return false
			}
		}
	}
	if s.propertyNames != nil {
		for name := range obj {
			if !s.propertyNames.valid(name) {
				return false
			}
		}
	}
	for _, d := range s.dependentSchemas {
		if _, ok := obj[d.property]; ok && !d.schema.valid(obj) {
			return false
		}
	}
	for _, d := range s.dependentRequired {
		if _, ok := obj[d.property]; ok {
			for _, name := range d.required {
				if _, ok := obj[name]; !ok {
					return false
				}
			}
		}
	}
	return true
}

func (s *Schema) validArray(arr []any) bool {
	if s.minItems != absent && len(arr) < s.minItems {
		return false
	}
	if s.maxItems != absent && len(arr) > s.maxItems {
		return false
	}
	if s.uniqueItems && len(arr) > 1 {
		if i, _ := duplicates(arr); i != -1 {
			return false
		}
	}
	n := min(len(s.prefixItems), len(arr))
	for i, item := range arr[:n] {
		if !s.prefixItems[i].valid(item) {
			return false
		}
	}
	if s.items != nil {
		for _, item := range arr[n:] {
			if !s.items.valid(item) {
				return false
			}
		}
	}
	if s.contains != nil {
		matched := 0
		for _, item := range arr {
			if s.contains.valid(item) {
				matched++
			}
		}
		if s.minContains != absent {
			if matched < s.minContains {
				return false
			}
		} else if matched == 0 {
			return false
		}
		if s.maxContains != absent && matched > s.maxContains {
			return false
		}
	}
	return true
}

func (s *Schema) validString(str string) bool {
	if s.minLength != absent || s.maxLength != absent {
		n := utf8.RuneCountInString(str)
		if s.minLength != absent && n < s.minLength {
			return false
		}
		if s.maxLength != absent && n > s.maxLength {
			return false
		}
	}
	return s.pattern == nil || s.pattern.MatchString(str)
}

func (s *Schema) validNumber(v any) bool {
	for _, lim := range [...]struct {
		n    *number
		fail func(int) bool
	}{
		{s.minimum, func(c int) bool { return c < 0 }},
		{s.maximum, func(c int) bool { return c > 0 }},
		{s.exclusiveMinimum, func(c int) bool { return c <= 0 }},
		{s.exclusiveMaximum, func(c int) bool { return c >= 0 }},
	} {
		if lim.n == nil {
			continue
		}
		c, ok := compareNum(v, lim.n)
		if !ok || lim.fail(c) {
			return false
		}
	}
	if s.multipleOf != nil {
		if ok, num := isMultiple(v, s.multipleOf); !ok || !num {
			return false
		}
	}
	return true
}

// check returns a node's failures on v at loc, in keyword order: the
// type, const and enum keywords stop at their own failure; the rest are
// all reported.
func (s *Schema) check(v any, loc []string) []*Error {
	fail := func(k Kind) *Error { return &Error{InstanceLocation: loc, SchemaLocation: s.Location, Kind: k} }
	if s.boolean != nil {
		if *s.boolean {
			return nil
		}
		return []*Error{fail(&FalseSchema{})}
	}
	t := typeOf(v)
	if t == 0 {
		return []*Error{fail(&InvalidValue{Value: v})}
	}
	if s.types != 0 && s.types&t == 0 && (s.types&typeInteger == 0 || t != typeNumber || !isInteger(v)) {
		return []*Error{fail(&Type{Got: typeNames[bitIndex(t)], Want: s.types.names()})}
	}
	if s.hasConst && !equal(v, s.constVal) {
		return []*Error{fail(&Const{Got: v, Want: s.constVal})}
	}
	if s.hasEnum && !s.inEnum(v) {
		return []*Error{fail(&Enum{Got: v, Want: s.enum})}
	}
	var errs []*Error
	if s.ref != nil && !s.ref.valid(v) {
		e := fail(&Reference{Ref: s.refString})
		inner := join(s.ref, loc, s.ref.check(v, loc))
		if _, isGroup := inner.Kind.(*Group); isGroup {
			e.Causes = inner.Causes
		} else {
			e.Causes = []*Error{inner}
		}
		errs = append(errs, e)
	}
	switch x := v.(type) {
	case map[string]any:
		errs = s.checkObject(x, loc, errs, fail)
	case []any:
		errs = s.checkArray(x, loc, errs, fail)
	case string:
		errs = s.checkString(x, errs, fail)
	case bool, nil:
	default:
		errs = s.checkNumber(v, errs, fail)
	}
	if s.not != nil && s.not.valid(v) {
		errs = append(errs, fail(&Not{}))
	}
	if len(s.allOf) > 0 {
		var causes []*Error
		for _, x := range s.allOf {
			if !x.valid(v) {
				causes = append(causes, join(x, loc, x.check(v, loc)))
			}
		}
		if len(causes) > 0 {
			e := fail(&AllOf{})
			e.Causes = causes
			errs = append(errs, e)
		}
	}
	if len(s.anyOf) > 0 && !slices.ContainsFunc(s.anyOf, func(x *Schema) bool { return x.valid(v) }) {
		e := fail(&AnyOf{})
		for _, x := range s.anyOf {
			e.Causes = append(e.Causes, join(x, loc, x.check(v, loc)))
		}
		errs = append(errs, e)
	}
	if len(s.oneOf) > 0 {
		first := -1
		for i, x := range s.oneOf {
			if !x.valid(v) {
				continue
			}
			if first == -1 {
				first = i
				continue
			}
			errs = append(errs, fail(&OneOf{Matched: []int{first, i}}))
			break
		}
		if first == -1 {
			e := fail(&OneOf{})
			for _, x := range s.oneOf {
				e.Causes = append(e.Causes, join(x, loc, x.check(v, loc)))
			}
			errs = append(errs, e)
		}
	}
	if s.ifS != nil {
		branch := s.elsS
		if s.ifS.valid(v) {
			branch = s.thenS
		}
		if branch != nil && !branch.valid(v) {
			errs = append(errs, join(branch, loc, branch.check(v, loc)))
		}
	}
	return errs
}

func bitIndex(t typeSet) int {
	for i := range typeNames {
		if t&(1<<i) != 0 {
			return i
		}
	}
	return 0
}

// at is loc with one more token, in a slice of its own.
func at(loc []string, tok string) []string {
	out := make([]string, len(loc)+1)
	copy(out, loc)
	out[len(loc)] = tok
	return out
}

func (s *Schema) checkObject(obj map[string]any, loc []string, errs []*Error, fail func(Kind) *Error) []*Error {
	if s.minProperties != absent && len(obj) < s.minProperties {
		errs = append(errs, fail(&MinProperties{Got: len(obj), Want: s.minProperties}))
	}
	if s.maxProperties != absent && len(obj) > s.maxProperties {
		errs = append(errs, fail(&MaxProperties{Got: len(obj), Want: s.maxProperties}))
	}
	if missing := missingOf(obj, s.required); missing != nil {
		errs = append(errs, fail(&Required{Missing: missing}))
	}
	names := make([]string, 0, len(obj))
	for name := range obj {
		names = append(names, name)
	}
	slices.Sort(names)
	var additional []string
	for _, name := range names {
		val := obj[name]
		evaluated := false
		sub := func(x *Schema) {
			if !x.valid(val) {
				l := at(loc, name)
				errs = append(errs, join(x, l, x.check(val, l)))
			}
		}
		if x, ok := s.properties[name]; ok {
			evaluated = true
			sub(x)
		}
		for _, p := range s.patternProperties {
			if p.re.MatchString(name) {
				evaluated = true
				sub(p.schema)
			}
		}
		if !evaluated {
			if s.additionalFalse {
				additional = append(additional, name)
			} else if s.additional != nil {
				sub(s.additional)
			}
		}
	}
	if len(additional) > 0 {
		errs = append(errs, fail(&AdditionalProperties{Properties: additional}))
	}
	if x := s.propertyNames; x != nil {
		for _, name := range names {
			if !x.valid(name) {
				e := fail(&PropertyNames{Property: name})
				e.SchemaLocation = x.Location
				e.Causes = x.check(name, loc)
				errs = append(errs, e)
			}
		}
	}
	for _, d := range s.dependentSchemas {
		if _, ok := obj[d.property]; ok && !d.schema.valid(obj) {
			errs = append(errs, join(d.schema, loc, d.schema.check(obj, loc)))
		}
	}
	for _, d := range s.dependentRequired {
		if _, ok := obj[d.property]; ok {
			if missing := missingOf(obj, d.required); missing != nil {
				errs = append(errs, fail(&DependentRequired{Property: d.property, Missing: missing}))
			}
		}
	}
	return errs
}

func missingOf(obj map[string]any, names []string) []string {
	var missing []string
	for _, name := range names {
		if _, ok := obj[name]; !ok {
			missing = append(missing, name)
		}
	}
	return missing
}

func (s *Schema) checkArray(arr []any, loc []string, errs []*Error, fail func(Kind) *Error) []*Error {
	if s.minItems != absent && len(arr) < s.minItems {
		errs = append(errs, fail(&MinItems{Got: len(arr), Want: s.minItems}))
	}
	if s.maxItems != absent && len(arr) > s.maxItems {
		errs = append(errs, fail(&MaxItems{Got: len(arr), Want: s.maxItems}))
	}
	if s.uniqueItems && len(arr) > 1 {
		if i, j := duplicates(arr); i != -1 {
			errs = append(errs, fail(&UniqueItems{Duplicates: [2]int{i, j}}))
		}
	}
	item := func(x *Schema, i int) {
		if !x.valid(arr[i]) {
			l := at(loc, strconv.Itoa(i))
			errs = append(errs, join(x, l, x.check(arr[i], l)))
		}
	}
	n := min(len(s.prefixItems), len(arr))
	for i := range n {
		item(s.prefixItems[i], i)
	}
	if s.items != nil {
		for i := n; i < len(arr); i++ {
			item(s.items, i)
		}
	}
	if s.contains != nil {
		var causes []*Error
		var matched []int
		for i, it := range arr {
			if s.contains.valid(it) {
				matched = append(matched, i)
				continue
			}
			l := at(loc, strconv.Itoa(i))
			causes = append(causes, join(s.contains, l, s.contains.check(it, l)))
		}
		if s.minContains != absent {
			if len(matched) < s.minContains {
				e := fail(&MinContains{Got: matched, Want: s.minContains})
				e.Causes = causes
				errs = append(errs, e)
			}
		} else if len(matched) == 0 {
			e := fail(&Contains{})
			e.Causes = causes
			errs = append(errs, e)
		}
		if s.maxContains != absent && len(matched) > s.maxContains {
			errs = append(errs, fail(&MaxContains{Got: matched, Want: s.maxContains}))
		}
	}
	return errs
}

func (s *Schema) checkString(str string, errs []*Error, fail func(Kind) *Error) []*Error {
	if s.minLength != absent || s.maxLength != absent {
		n := utf8.RuneCountInString(str)
		if s.minLength != absent && n < s.minLength {
			errs = append(errs, fail(&MinLength{Got: n, Want: s.minLength}))
		}
		if s.maxLength != absent && n > s.maxLength {
			errs = append(errs, fail(&MaxLength{Got: n, Want: s.maxLength}))
		}
	}
	if s.pattern != nil && !s.pattern.MatchString(str) {
		errs = append(errs, fail(&Pattern{Got: str, Want: s.pattern.String()}))
	}
	return errs
}

func (s *Schema) checkNumber(v any, errs []*Error, fail func(Kind) *Error) []*Error {
	if s.minimum == nil && s.maximum == nil && s.exclusiveMinimum == nil && s.exclusiveMaximum == nil && s.multipleOf == nil {
		return errs
	}
	got, ok := ratOf(v)
	if !ok {
		return append(errs, fail(&InvalidValue{Value: v}))
	}
	if s.minimum != nil && got.Cmp(s.minimum.rat) < 0 {
		errs = append(errs, fail(&Minimum{Got: got, Want: s.minimum.rat}))
	}
	if s.maximum != nil && got.Cmp(s.maximum.rat) > 0 {
		errs = append(errs, fail(&Maximum{Got: got, Want: s.maximum.rat}))
	}
	if s.exclusiveMinimum != nil && got.Cmp(s.exclusiveMinimum.rat) <= 0 {
		errs = append(errs, fail(&ExclusiveMinimum{Got: got, Want: s.exclusiveMinimum.rat}))
	}
	if s.exclusiveMaximum != nil && got.Cmp(s.exclusiveMaximum.rat) >= 0 {
		errs = append(errs, fail(&ExclusiveMaximum{Got: got, Want: s.exclusiveMaximum.rat}))
	}
	if s.multipleOf != nil {
		if ok, _ := isMultiple(v, s.multipleOf); !ok {
			errs = append(errs, fail(&MultipleOf{Got: got, Want: s.multipleOf.rat}))
		}
	}
	return errs
}
