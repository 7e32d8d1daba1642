package yamlfast

import (
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// blockScalar parses a literal (|) or folded (>) block scalar whose
// indicator is at pos, in a block collection indented parent columns; it
// ends at the next content line. Explicit indentation indicators, and
// leading blank lines longer than the first text line, go to yaml.v3.
func (p *parser) blockScalar(parent int) *yaml.Node {
	n := p.node()
	n.Kind, n.Tag = yaml.ScalarNode, tagStr
	n.Line, n.Column = p.line, p.col(p.pos)
	literal := p.src[p.pos] == '|'
	if literal {
		n.Style = yaml.LiteralStyle
	} else {
		n.Style = yaml.FoldedStyle
	}
	i := p.pos + 1
	chomp := 0 // clip; -1 strip; 1 keep
	switch p.at(i) {
	case '-':
		chomp, i = -1, i+1
	case '+':
		chomp, i = 1, i+1
	}
	if c := p.at(i); c >= '0' && c <= '9' {
		p.fail()
	}
	j := i
	for j < len(p.src) && p.src[j] == ' ' {
		j++
	}
	if j < len(p.src) && p.src[j] != '\n' {
		if p.src[j] != '#' || j == i {
			p.fail()
		}
		j = p.lineEnd(j)
	}
	if j >= len(p.src) {
		p.fail() // no text
	}
	line := p.line + 1
	ls := j + 1 // the start of the line being read

	// The indentation is the first text line's.
	blanks, longest := 0, 0
	indent := -1
	for indent < 0 {
		if ls >= len(p.src) {
			p.fail()
		}
		sp := spaces(p.src, ls)
		le := p.lineEnd(ls + sp)
		if ls+sp < le {
			indent = sp
			break
		}
		if le >= len(p.src) {
			p.fail() // only blank lines up to the end of the text
		}
		blanks++
		longest = max(longest, sp)
		ls, line = le+1, line+1
	}
	if indent <= parent || longest > indent {
		p.fail()
	}

	var s []byte
	leadingBreak, leadingBlank := false, false
	trailingBreaks := blanks
	for {
		// ls starts a text line indented at least indent spaces.
		le := p.lineEnd(ls + indent)
		text := p.src[ls+indent : le]
		trailingBlank := text[0] == ' '
		if !literal && !leadingBlank && !trailingBlank && leadingBreak {
			if trailingBreaks == 0 {
				s = append(s, ' ')
			}
		} else if leadingBreak {
			s = append(s, '\n')
		}
		for ; trailingBreaks > 0; trailingBreaks-- {
			s = append(s, '\n')
		}
		leadingBlank = trailingBlank
		s = append(s, text...)
		if le >= len(p.src) {
			leadingBreak = false
			ls = le
			break
		}
		leadingBreak = true
		ls, line = le+1, line+1
		// Blank lines, up to the next text line or the end.
		more := false
		for ls < len(p.src) {
			sp := spaces(p.src, ls)
			end := ls + sp
			if end < len(p.src) && p.src[end] != '\n' {
				more = sp >= indent // text, or the end of the scalar
				break
			}
			if sp > indent {
				more = true // a text line of spaces
				break
			}
			if end >= len(p.src) {
				ls = end // spaces without a line break: not a break
				break
			}
			trailingBreaks++
			ls, line = end+1, line+1
		}
		if !more {
			break
		}
	}
	if chomp != -1 && leadingBreak {
		s = append(s, '\n')
	}
	if chomp == 1 {
		for ; trailingBreaks > 0; trailingBreaks-- {
			s = append(s, '\n')
		}
	}
	n.Value = string(s)

	// Continue from the line that ended the scalar (or the end): as if
	// after the line before it.
	if ls >= len(p.src) {
		p.pos = len(p.src)
	} else {
		p.pos, p.line, p.lineStart = ls-1, line-1, ls
	}
	p.next()
	return n
}

func spaces(s string, i int) int {
	n := 0
	for i+n < len(s) && s[i+n] == ' ' {
		n++
	}
	return n
}

// resolve returns the tag yaml.v3 gives a plain scalar, by the rules of
// its resolver (YAML 1.2 core schema with yaml.v3's own readings: 0755 is
// an int, yes is a string); it bails on the merge key and on timestamps.
func resolve(s string) string {
	if s == "" {
		return tagNull
	}
	switch c := s[0]; {
	case c == '<':
		if s == "<<" {
			panic(bail{})
		}
		return tagStr
	case c == '~':
		if s == "~" {
			return tagNull
		}
		return tagStr
	case c == 'n' || c == 'N':
		if s == "null" || s == "Null" || s == "NULL" {
			return tagNull
		}
		return tagStr
	case c == 't' || c == 'T':
		if s == "true" || s == "True" || s == "TRUE" {
			return tagBool
		}
		return tagStr
	case c == 'f' || c == 'F':
		if s == "false" || s == "False" || s == "FALSE" {
			return tagBool
		}
		return tagStr
	case c == '.':
		switch s {
		case ".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF":
			return tagFloat
		}
		if _, err := strconv.ParseFloat(s, 64); err == nil {
			return tagFloat
		}
		return tagStr
	case c == '+' || c == '-' || c >= '0' && c <= '9':
		return resolveNumber(s)
	}
	return tagStr
}

// resolveNumber resolves a plain scalar that starts with a sign or a digit.
func resolveNumber(s string) string {
	switch s {
	case "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF":
		return tagFloat
	}
	digits := 0
	for digits < len(s) && s[digits] >= '0' && s[digits] <= '9' {
		digits++
	}
	if digits == 4 && len(s) > 4 && s[4] == '-' {
		panic(bail{}) // maybe a timestamp: left to yaml.v3
	}
	plain := s
	if strings.IndexByte(s, '_') >= 0 {
		plain = strings.ReplaceAll(s, "_", "")
	}
	if _, err := strconv.ParseInt(plain, 0, 64); err == nil {
		return tagInt
	}
	if _, err := strconv.ParseUint(plain, 0, 64); err == nil {
		return tagInt
	}
	if isDecimalFloat(plain) {
		if _, err := strconv.ParseFloat(plain, 64); err == nil {
			return tagFloat
		}
	}
	// Binary and octal with a prefix, which ParseInt's base 0 does not
	// take after a sign in every case yaml.v3 does.
	body, neg := plain, false
	if body != "" && body[0] == '-' {
		body, neg = body[1:], true
	}
	if len(body) > 2 && body[0] == '0' && (body[1] == 'b' || body[1] == 'o') {
		base := 2
		if body[1] == 'o' {
			base = 8
		}
		if neg {
			if _, err := strconv.ParseInt("-"+body[2:], base, 64); err == nil {
				return tagInt
			}
		} else {
			if _, err := strconv.ParseInt(body[2:], base, 64); err == nil {
				return tagInt
			}
			if _, err := strconv.ParseUint(body[2:], base, 64); err == nil {
				return tagInt
			}
		}
	}
	return tagStr
}

// isDecimalFloat reports whether s is [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
func isDecimalFloat(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	intDigits := countDigits(s, i)
	i += intDigits
	if i < len(s) && s[i] == '.' {
		i++
		frac := countDigits(s, i)
		if intDigits == 0 && frac == 0 {
			return false
		}
		i += frac
	} else if intDigits == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '-' || s[i] == '+') {
			i++
		}
		exp := countDigits(s, i)
		if exp == 0 {
			return false
		}
		i += exp
	}
	return i == len(s)
}

func countDigits(s string, i int) int {
	n := 0
	for i+n < len(s) && s[i+n] >= '0' && s[i+n] <= '9' {
		n++
	}
	return n
}
