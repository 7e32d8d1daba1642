package scenario

import (
	"reflect"
	"testing"

	"github.com/agenteval/agenteval/internal/evalparams"
	"github.com/agenteval/agenteval/internal/formats"
	"github.com/stretchr/testify/require"
)

// TestFreeTextFields loads hostile strings into every field tagged
// agenteval:"freetext" and checks they draw no diagnostic a plain string does not.
func TestFreeTextFields(t *testing.T) {
	t.Parallel()
	base := `name: free
description: every free-text field, set
character: {name: c, system: s, llm: {model: m}}
setup:
  virtual_fs: {"a.txt": "x"}
  mocks:
    - {service: s, method: m, responseFn: "x", error: {code: E, message: x}}
run:
  - name: step
    input: x
    evaluations:
      - {type: string_contains, value: x, description: x}
      - {type: file_contains, path: a.txt, value: x}
      - {type: llm_judge, prompt: x, expected: "yes"}
  - input: x
    conversation:
      max_turns: 2
      user_simulator: {persona: x, objective: x, style: x, emotional_state: x}
      termination_conditions:
        - {type: custom_condition, description: x, llm_judge: {prompt: x}}
checkpoints:
  - {id: c, description: x, task: t, input: {}, condition: {type: non_empty}}
judgment: {strategy: all_pass}
environment: {type: local}
`
	f, err := NewLoader(testRegistries{}, Options{}).Load("free.scenario.yaml", []byte(base))
	require.NoError(t, err, "%v", err)
	paths := []Path{
		{{Key: "name"}}, {{Key: "description"}},
		{{Key: "character"}, {Key: "name"}}, {{Key: "character"}, {Key: "system"}}, {{Key: "character"}, {Key: "llm"}, {Key: "model"}},
		{{Key: "setup"}, {Key: "virtual_fs"}, {Key: "a.txt"}},
		{{Key: "setup"}, {Key: "mocks"}, {Index: 0, IsIndex: true}, {Key: "responseFn"}},
		{{Key: "setup"}, {Key: "mocks"}, {Index: 0, IsIndex: true}, {Key: "error"}, {Key: "message"}},
		{{Key: "run"}, {Index: 0, IsIndex: true}, {Key: "name"}}, {{Key: "run"}, {Index: 0, IsIndex: true}, {Key: "input"}},
	}
	ev := Path{{Key: "run"}, {Index: 0, IsIndex: true}, {Key: "evaluations"}}
	paths = append(paths, ev.Index(0).Key("value"), ev.Index(0).Key("description"), ev.Index(1).Key("value"), ev.Index(2).Key("prompt"))
	conv := Path{{Key: "run"}, {Index: 1, IsIndex: true}, {Key: "conversation"}}
	for _, k := range []string{"persona", "objective", "style", "emotional_state"} {
		paths = append(paths, conv.Key("user_simulator").Key(k))
	}
	paths = append(paths, conv.Key("termination_conditions").Index(0).Key("description"), conv.Key("termination_conditions").Index(0).Key("llm_judge").Key("prompt"),
		Path{{Key: "checkpoints"}, {Index: 0, IsIndex: true}, {Key: "description"}})
	hostile := []string{"(", "../../etc/passwd", "/abs", "{{x}}", "on", "yes", "[a", "${input.x}", "\x00\n\t", "0777", "weighted", "strict mode"}
	l := NewLoader(testRegistries{}, Options{})
	for _, p := range paths {
		for _, s := range hostile {
			doc := setPlainForTest(f.Doc.Value, p, s)
			g, err := l.LoadValue(KindScenario, "free.scenario.yaml", doc)
			require.NoError(t, err, "%s = %q: %v", p, s, err)
			require.Len(t, g.Diagnostics, len(f.Diagnostics), "%s = %q: %v", p, s, g.Diagnostics)
		}
	}
	require.True(t, formats.IsFreeText(reflect.TypeFor[*RunStep](), "input"))
	require.False(t, formats.IsFreeText(reflect.TypeFor[evalparams.FileContains](), "path"))
	require.False(t, formats.IsFreeText(reflect.TypeFor[evalparams.RegexMatch](), "pattern"))
}

// setPlainForTest returns a copy of plain data with the value at p replaced.
func setPlainForTest(v any, p Path, s string) any {
	if len(p) == 0 {
		return s
	}
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = e
		}
		out[p[0].Key] = setPlainForTest(x[p[0].Key], p[1:], s)
		return out
	case []any:
		out := append([]any(nil), x...)
		out[p[0].Index] = setPlainForTest(x[p[0].Index], p[1:], s)
		return out
	}
	panic("path does not exist")
}
