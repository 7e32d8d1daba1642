package scenario_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval"
	"github.com/agenteval/agenteval/judge"
	"github.com/agenteval/agenteval/scenario"
)

// TestSchemaFilesUpToDate regenerates schemas/comments.json, every
// schemas/<kind>.schema.json of the built-in registries and the fingerprint
// of their vocabulary from the Go source and compares them with the
// committed (and embedded) files. Run `go generate ./scenario` (or this test
// with -update) after changing a type, a tag, a doc comment or a built-in.
func TestSchemaFilesUpToDate(t *testing.T) {
	comments := scenario.ExtractComments(t)
	require.NotEmpty(t, comments)
	reg := agenteval.New().Registries
	want := map[string][]byte{
		"comments.json":       scenario.MarshalComments(t, comments),
		"builtin.fingerprint": []byte(scenario.Fingerprint(reg) + "\n"),
	}
	for _, k := range scenario.SchemaKinds() {
		b, err := scenario.GenerateFresh(k, reg, comments)
		require.NoError(t, err, k)
		want[k.String()+".schema.json"] = b
	}
	for name, b := range want {
		file := filepath.Join("schemas", name)
		if scenario.UpdateGolden() {
			require.NoError(t, os.WriteFile(file, b, 0o644))
			continue
		}
		got, err := os.ReadFile(file)
		require.NoError(t, err, "run: go generate ./scenario")
		if !bytes.Equal(b, got) {
			t.Errorf("%s is out of date (first difference: %s); run: go generate ./scenario", file, scenario.FirstDiff(string(b), string(got)))
		}
	}
}

// TestEmbeddedSchemasMatchGeneration checks that what a consumer's binary
// serves for the built-in registries (the embedded files) is what the
// embedded comment map generates, and that another vocabulary is generated
// afresh.
func TestEmbeddedSchemasMatchGeneration(t *testing.T) {
	t.Parallel()
	reg := agenteval.New().Registries
	for _, k := range scenario.SchemaKinds() {
		embedded, err := scenario.GenerateSchema(k, reg)
		require.NoError(t, err)
		generated, err := scenario.GenerateFresh(k, reg, nil)
		require.NoError(t, err)
		assert.JSONEq(t, string(generated), string(embedded), k.String())
	}
	require.NoError(t, reg.Strategies.Register(bestOfTwo()))
	b, err := scenario.GenerateSchema(scenario.KindScenario, reg)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"best_of_two"`, "a registration changes the vocabulary, so the schema is generated")
}

func TestSchemaDescriptions(t *testing.T) {
	t.Parallel()
	b, err := scenario.GenerateSchema(scenario.KindScenario, agenteval.New().Registries)
	require.NoError(t, err)
	var s struct {
		Description string `json:"description"`
		Properties  map[string]struct {
			Description string `json:"description"`
		} `json:"properties"`
		Defs map[string]struct {
			Description string `json:"description"`
			Properties  map[string]struct {
				Description string `json:"description"`
			} `json:"properties"`
		} `json:"$defs"`
	}
	require.NoError(t, json.Unmarshal(b, &s))
	assert.Contains(t, s.Description, "runtime model")
	assert.Equal(t, "Run is the ordered list of steps.", s.Properties["run"].Description)
	assert.Equal(t, "MaxTurns bounds the number of agent turns.", s.Defs["Conversation"].Properties["max_turns"].Description)
	assert.Equal(t, "Pattern is the regular expression.", s.Defs["Evaluation_regex_match"].Properties["pattern"].Description)
	assert.Contains(t, s.Defs["Judgment"].Properties["strategy"].Description, "\n- all_pass: Passes when every evaluation passes.",
		"each registered name is documented")
	for name, d := range s.Defs {
		for prop, p := range d.Properties {
			assert.NotEmpty(t, p.Description, "$defs.%s.properties.%s has no description", name, prop)
		}
	}
}

// TestInternalVocabularyIsTheBuiltins keeps the vocabulary this package's
// internal tests load with equal to the built-in registries' (names, what
// each needs, which evaluation types judge conversations).
func TestInternalVocabularyIsTheBuiltins(t *testing.T) {
	t.Parallel()
	strip := func(v *scenario.Vocabulary) *scenario.Vocabulary {
		c := *v
		c.Evaluations = nil
		for _, e := range v.Evaluations {
			c.Evaluations = append(c.Evaluations, scenario.EvaluationType{Name: e.Name, Conversation: e.Conversation})
		}
		for _, ts := range []*[]scenario.Term{&c.Strategies, &c.Conditions, &c.Scorers, &c.Terminations, &c.Environments, &c.Agents} {
			var out []scenario.Term
			for _, t := range *ts {
				t.Doc = ""
				out = append(out, t)
			}
			*ts = out
		}
		return &c
	}
	assert.Equal(t, strip(agenteval.New().Registries.Vocabulary()), strip(scenario.InternalTestVocabulary()))
}

// bestOfTwo is a host's own judgment strategy.
func bestOfTwo() *judge.Strategy {
	return &judge.Strategy{Name: "best_of_two", Doc: "Passes when at least two evaluations pass.",
		Decide: func(outcomes []judge.Outcome, _ judge.Options) judge.Decision {
			n := 0
			for _, o := range outcomes {
				if o.Passed {
					n++
				}
			}
			return judge.Decision{Passed: n >= 2}
		}}
}
