package evaluate

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

func TestContainsFold(t *testing.T) {
	t.Parallel()
	cases := []struct {
		s, sub string
		want   bool
	}{
		{"Hello World", "WORLD", true},
		{"Hello World", "worlds", false},
		{"", "", true},
		{"abc", "", true},
		{"", "a", false},
		{"Straße", "STRASSE", false}, // simple folding does not expand ß
		{"ÜBER alles", "über", true},
		{"temperature 300\u212a", "300k", true}, // Kelvin sign folds to k
		{"the \u017fun", "SUN", true},           // long s folds to s
		{"ab", "abc", false},
		{"xxabcabd", "ABD", true},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, containsFold(c.s, c.sub), "%q in %q", c.sub, c.s)
	}
}

func TestWordMatching(t *testing.T) {
	t.Parallel()
	assert.True(t, containsWord("please escalate this", "escalate"))
	assert.False(t, containsWord("de-escalated", "escalate"))
	assert.True(t, containsWord("de-escalate", "escalate"), "a hyphen is a word boundary")
	assert.False(t, containsWord("transferable", "transfer"))
	assert.True(t, containsWord("thanks!", "thanks"))
	assert.True(t, containsWord("it's a waste of time.", "waste of time"))
	assert.Equal(t, 2, countWord("great, great work; greatest", "great"))
	assert.False(t, containsWord("abc", ""))
}

func TestOnlyQuestions(t *testing.T) {
	t.Parallel()
	assert.True(t, onlyQuestions("Which one? The red or the blue one?"))
	assert.False(t, onlyQuestions("Use the red one. Does that help?"))
	assert.False(t, onlyQuestions("Is it on? Then restart"))
	assert.False(t, onlyQuestions(""))
}

func TestExcerpt(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "a b c", excerpt("  a \n\t b   c  "))
	long := strings.Repeat("x", 100)
	assert.Equal(t, strings.Repeat("x", excerptLen)+"…", excerpt(long))
	assert.Equal(t, "ünï", excerpt("ünï"))
	assert.Equal(t, "a\ufffdb", excerpt("a\xffb"))
}

// FuzzWithQuoted checks withQuoted's shortcut against strconv.Quote (%q).
func FuzzWithQuoted(f *testing.F) {
	for _, s := range []string{"", "plain", `a"b`, `a\b`, "tab\there", "\xff", "\ufffd", "ünï", "\u2028", "\U0001F600"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := withQuoted("at ", s), fmt.Sprintf("at %q", s); got != want {
			t.Fatalf("withQuoted(%q) = %q, want %q", s, got, want)
		}
	})
}

// FuzzExcerpt checks that excerpt's shortcut (a text that is its own
// excerpt comes back as it is) agrees with building the excerpt.
func FuzzExcerpt(f *testing.F) {
	f.Add("  a \n\t b   c  ")
	f.Add(strings.Repeat("x", 100))
	f.Add(strings.Repeat("x ", 30))
	f.Add("Question 7: what is topic-7?")
	f.Add("a\u00a0b")
	f.Add("a\xffb")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := excerpt(s), collapse(strings.TrimSpace(s)); got != want {
			t.Fatalf("excerpt(%q) = %q, want %q", s, got, want)
		}
	})
}

func TestNormalizeActionName(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"LIST_GITHUB_ISSUES", "listGithubIssues", "list-github-issues", "List Github Issues"} {
		assert.Equal(t, "listgithubissues", normalizeActionName(s))
	}
}

func TestMatchValue(t *testing.T) {
	t.Parallel()
	ok, _ := matchValue("args", map[string]any{"a": []any{1, map[string]any{"b": "x"}}}, map[string]any{"a": []any{1.0, map[string]any{"b": "x", "c": 2}}}, true)
	assert.True(t, ok)
	ok, why := matchValue("args", map[string]any{"a": []any{1, map[string]any{"b": "x"}}}, map[string]any{"a": []any{1.0, map[string]any{"b": "x", "c": 2}}}, false)
	assert.False(t, ok)
	assert.Equal(t, "args.a[1].c: not expected (got 2)", why)
	ok, why = matchValue("args", map[string]any{"n": true}, map[string]any{"n": "true"}, true)
	assert.False(t, ok)
	assert.Equal(t, `args.n: want true, got "true"`, why)
	ok, _ = matchValue("args", map[string]any{"n": nil}, map[string]any{"n": nil}, false)
	assert.True(t, ok)
	ok, why = matchValue("args", map[string]any{"n": "x"}, map[string]any{"n": 1}, true)
	assert.False(t, ok)
	assert.Equal(t, `args.n: want "x", got 1`, why)
	ok, why = matchValue("args", map[string]any{"l": []any{1, 2}}, map[string]any{"l": []any{1}}, true)
	assert.False(t, ok)
	assert.Equal(t, "args.l: want 2 items, got 1", why)
	ok, _ = matchValue("args", map[string]any{"n": int64(3)}, map[string]any{"n": uint8(3)}, false)
	assert.True(t, ok)
}

func TestSameAction(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"LIST_GITHUB_ISSUES", "listGithubIssues", "list-github-issues", "List Github Issues"} {
		assert.True(t, sameAction(s, "listgithubissues"), s)
		assert.Equal(t, sameAction(s, "listgithubissues"), normalizeActionName(s) == "listgithubissues")
	}
	assert.False(t, sameAction("list_issue", "listissues"))
	assert.False(t, sameAction("list_issuess", "listissues"))
	assert.True(t, sameAction("ÜBER", "über"))
}

// FuzzContainsFold checks containsFold against RE2's case-insensitive
// literal match, which uses the same simple case folding.
func FuzzContainsFold(f *testing.F) {
	f.Add("Hello World", "WORLD")
	f.Add("temperature 300\u212a", "300k")
	f.Add("the \u017fun", "SUN")
	f.Add("ÜBER", "über")
	f.Add("aaa", "")
	f.Fuzz(func(t *testing.T, s, sub string) {
		if !utf8.ValidString(s) || !utf8.ValidString(sub) {
			t.Skip()
		}
		want := regexp.MustCompile("(?i)" + regexp.QuoteMeta(sub)).MatchString(s)
		if got := containsFold(s, sub); got != want {
			t.Fatalf("containsFold(%q, %q) = %v, want %v", s, sub, got, want)
		}
	})
}
