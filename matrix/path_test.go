package matrix

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/scenario"
)

func TestParsePath(t *testing.T) {
	k := func(s string) scenario.PathElem { return scenario.PathElem{Key: s} }
	i := func(n int) scenario.PathElem { return scenario.PathElem{Index: n, IsIndex: true} }
	tests := []struct {
		in        string
		want      scenario.Path
		canonical string
	}{
		{"name", scenario.Path{k("name")}, "name"},
		{"$ref_1", scenario.Path{k("$ref_1")}, "$ref_1"},
		{"run[0].input", scenario.Path{k("run"), i(0), k("input")}, "run[0].input"},
		{"run[0].conversation.max_turns", scenario.Path{k("run"), i(0), k("conversation"), k("max_turns")}, "run[0].conversation.max_turns"},
		{"a.b[0].c[2].d", scenario.Path{k("a"), k("b"), i(0), k("c"), i(2), k("d")}, "a.b[0].c[2].d"},
		{"setup.mocks[0].when.args[1][0]", scenario.Path{k("setup"), k("mocks"), i(0), k("when"), k("args"), i(1), i(0)}, "setup.mocks[0].when.args[1][0]"},
		{`setup.virtual_fs["data.json"]`, scenario.Path{k("setup"), k("virtual_fs"), k("data.json")}, `setup.virtual_fs["data.json"]`},
		{`plugins[0].config["api-key"]`, scenario.Path{k("plugins"), i(0), k("config"), k("api-key")}, `plugins[0].config["api-key"]`},
		{`plugins[0].config['api-key']`, scenario.Path{k("plugins"), i(0), k("config"), k("api-key")}, `plugins[0].config["api-key"]`},
		{`setup.virtual_fs["a \"b\"\\c\u00e9"]`, scenario.Path{k("setup"), k("virtual_fs"), k(`a "b"\cé`)}, `setup.virtual_fs["a \"b\"\\cé"]`},
		{`setup.virtual_fs['it"s']`, scenario.Path{k("setup"), k("virtual_fs"), k(`it"s`)}, `setup.virtual_fs["it\"s"]`},
		{`["key with space"].x`, scenario.Path{k("key with space"), k("x")}, `["key with space"].x`},
		{`character["name"]`, scenario.Path{k("character"), k("name")}, "character.name"},
		{`m[""]`, scenario.Path{k("m"), k("")}, `m[""]`},
		{`m["0"]`, scenario.Path{k("m"), k("0")}, `m["0"]`},
		{"run[007]", scenario.Path{k("run"), i(7)}, "run[7]"},
		{"run[2147483647]", scenario.Path{k("run"), i(2147483647)}, "run[2147483647]"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := parseFullPath(tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, tt.canonical, got.String())
			again, err := parseFullPath(got.String())
			require.NoError(t, err)
			assert.Equal(t, got, again)
		})
	}
}

func TestParsePathErrors(t *testing.T) {
	tests := []struct {
		in     string
		column int
		msg    string
	}{
		{"", 1, "path is empty"},
		{".a", 1, "a path starts with a field name, not '.'"},
		{"a.", 3, "expected a field name after '.'"},
		{"a..b", 3, "empty field name (two dots in a row)"},
		{"[0].a", 1, "a path starts with a field name, not an index"},
		{"0abc", 1, `expected a field name, found '0'; quote keys that are not identifiers, as in ["data.json"]`},
		{"run[0.input", 6, "expected ']' to close the index, found '.'"},
		{"run[0", 6, "expected ']' to close the index, found the end of the path"},
		{"run[", 5, "expected an index or a quoted key after '['"},
		{"run[]", 5, "expected a non-negative index or a quoted key, found ']'"},
		{"run[ 0 ]", 5, "expected a non-negative index or a quoted key, found ' '"},
		{"run[-1]", 5, "an index cannot be negative"},
		{"run[1.5]", 6, "expected ']' to close the index, found '.'"},
		{"run[abc]", 5, "expected a non-negative index or a quoted key, found 'a'"},
		{"run[2147483648]", 5, "index is too large"},
		{"run]0[", 4, "unexpected ']' with no '[' open"},
		{"run[0]input", 7, `unexpected 'i'; expected '.', '[' or the end (quote keys that are not identifiers, as in ["data.json"])`},
		{"plugins[0].config.api-key", 22, `unexpected '-'; expected '.', '[' or the end; quote keys that are not identifiers: plugins[0].config["api-key"]`},
		{"api-key", 4, `unexpected '-'; expected '.', '[' or the end; quote keys that are not identifiers: ["api-key"]`},
		{"a.b c", 4, `unexpected ' '; expected '.', '[' or the end; quote keys that are not identifiers: a["b c"]`},
		{`m["open`, 3, "quoted key is not closed"},
		{`m['open`, 3, "quoted key is not closed"},
		{`m["bad\q"]`, 3, "quoted key has an invalid escape"},
		{`m["k"`, 6, "expected ']' after the quoted key, found the end of the path"},
		{`m["k"x]`, 6, "expected ']' after the quoted key, found 'x'"},
		{"é.a", 1, `expected a field name, found 'é'; quote keys that are not identifiers, as in ["data.json"]`},
		{"ä.é", 1, `expected a field name, found 'ä'; quote keys that are not identifiers, as in ["data.json"]`},
		{`["ä"].é`, 7, `expected a field name, found 'é'; quote keys that are not identifiers, as in ["data.json"]`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			_, err := parseFullPath(tt.in)
			var pe *pathError
			require.True(t, errors.As(err, &pe), "%v", err)
			assert.Equal(t, tt.in, pe.Input)
			assert.Equal(t, tt.column, pe.Column)
			assert.Equal(t, tt.msg, pe.Message)
		})
	}
}

// FuzzParsePath checks that the parser never panics and that every path it
// accepts prints (String) to a text it parses back to the same path.
func FuzzParsePath(f *testing.F) {
	for _, s := range []string{"run[0].input", `setup.virtual_fs["data.json"]`, `plugins[0].config['api-key']`,
		"a..b", "run[0", `m["\u00e9\x00"]`, "[0]", `["x"][1]`, "a.b[0][1].c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := parseFullPath(s)
		if err != nil {
			var pe *pathError
			if !errors.As(err, &pe) || pe.Column < 1 {
				t.Fatalf("parseFullPath(%q): bad error %v", s, err)
			}
			return
		}
		out := p.String()
		q, err := parseFullPath(out)
		if err != nil {
			t.Fatalf("parseFullPath(%q) = %v, whose String %q does not parse: %v", s, p, out, err)
		}
		if len(p) != len(q) {
			t.Fatalf("round trip of %q via %q: %v != %v", s, out, p, q)
		}
		for i := range p {
			if p[i] != q[i] {
				t.Fatalf("round trip of %q via %q: %v != %v", s, out, p, q)
			}
		}
	})
}

// A path reads into a scenario.Path whose String is the canonical spelling;
// a syntax error names the character, counted in characters.
func TestParseFullPath(t *testing.T) {
	t.Parallel()
	p, err := parseFullPath(`setup.virtual_fs['data.json']`)
	require.NoError(t, err)
	assert.Equal(t, `setup.virtual_fs["data.json"]`, p.String())
	assert.Len(t, p, 3)
	_, err = parseFullPath("run[0.input")
	assert.EqualError(t, err, `path "run[0.input": at character 6: expected ']' to close the index, found '.'`)
}
