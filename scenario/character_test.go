package scenario_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/scenario"
)

// TestCharacterSampling reads the model and sampling a character names:
// llm.* wins over the top-level temperature and max_tokens the format
// documents; anything else stays free-form.
func TestCharacterSampling(t *testing.T) {
	t.Parallel()
	character := func(character string) *scenario.Character {
		t.Helper()
		f, err := load("c.scenario.yaml", []byte("name: c\ndescription: d\nenvironment: {type: local}\n"+
			"run: [{input: hi, evaluations: [{type: string_contains, value: hi}]}]\njudgment: {strategy: all_pass}\n"+character))
		require.NoError(t, err)
		return f.Scenario.Character
	}
	cases := []struct {
		name, yaml  string
		model       string
		temperature any // nil or float64
		maxTokens   int
	}{
		{"none", "", "", nil, 0},
		{"top level", "character: {name: E, temperature: 0.7, max_tokens: 100}\n", "", 0.7, 100},
		{"llm", "character: {llm: {model: gpt-4-turbo, temperature: 0.2, max_tokens: 50}}\n", "gpt-4-turbo", 0.2, 50},
		{"llm wins", "character: {temperature: 0.7, max_tokens: 100, llm: {model: m, temperature: 0, max_tokens: 5}}\n", "m", 0.0, 5},
		{"llm model, top-level sampling", "character: {temperature: 1.5, llm: {model: claude-3}}\n", "claude-3", 1.5, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			model, temp, max := character(tc.yaml).Sampling()
			assert.Equal(t, tc.model, model)
			if tc.temperature == nil {
				assert.Nil(t, temp)
			} else {
				require.NotNil(t, temp)
				assert.InDelta(t, tc.temperature, *temp, 0)
			}
			assert.Equal(t, tc.maxTokens, max)
		})
	}
	c := character("character: {name: E, system_prompt: Be brief., style: {all: [terse]}}\n")
	assert.Equal(t, "Be brief.", c.SystemPrompt)
	assert.Equal(t, map[string]any{"style": map[string]any{"all": []any{"terse"}}}, c.Extra, "other keys stay free-form")

	_, err := load("c.scenario.yaml", []byte("name: c\ndescription: d\nenvironment: {type: local}\n"+
		"run: [{input: hi, evaluations: [{type: string_contains, value: hi}]}]\njudgment: {strategy: all_pass}\ncharacter: {temperature: hot}\n"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "character.temperature: got string, want number")
}
