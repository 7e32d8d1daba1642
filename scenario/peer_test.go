package scenario_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval"
	"github.com/agenteval/agenteval/evaluate"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/scenario"
)

// peerDir holds real files of both formats (copied from ../shared, see
// testdata/shared/PROVENANCE.md).
const peerDir = "../testdata/shared/peer"

func needPeer(t *testing.T, sub string) string {
	t.Helper()
	dir := filepath.Join(peerDir, sub)
	require.DirExists(t, dir)
	return dir
}

// TestPeerFilesLoad walks the shared example folders: every file loads
// without errors and without warnings (none of them has keys the formats do
// not define), except the ones in eliza/invalid.
func TestPeerFilesLoad(t *testing.T) {
	t.Parallel()
	for _, sub := range []string{"eliza", "ghx-scenarios"} {
		dir := needPeer(t, sub)
		set, _ := defaultLoader().LoadDir(dir)
		require.NotNil(t, set)
		var valid int
		for _, f := range set.Files {
			if strings.Contains(filepath.ToSlash(f.Name), "/invalid/") {
				continue
			}
			valid++
			assert.Empty(t, f.Diagnostics, "%s", f.Name)
			assert.NotEqual(t, scenario.KindUnknown, f.Kind, f.Name)
		}
		for _, d := range set.Diagnostics {
			assert.Contains(t, filepath.ToSlash(d.File), "/invalid/", "unexpected finding: %s", d)
		}
		assert.Positive(t, valid)
	}
}

func TestPeerFilesKinds(t *testing.T) {
	t.Parallel()
	dir := needPeer(t, "ghx-scenarios")
	set, err := defaultLoader().LoadDir(dir)
	require.NoError(t, err)
	kinds := map[string]scenario.Kind{}
	for _, f := range set.Files {
		kinds[filepath.Base(f.Name)] = f.Kind
	}
	assert.Equal(t, map[string]scenario.Kind{
		"pr-fix-mixed-threads-wf-001.json": scenario.KindGitHub,
		"pr-review-comment-001.json":       scenario.KindGitHub,
		"scenario-sets.json":               scenario.KindScenarioSets,
	}, kinds)
	s := set.Scenarios()
	require.Len(t, s, 2)
	sc := s[0].Scenario
	assert.Equal(t, "pr-fix-mixed-threads-wf-001", sc.ID)
	require.Len(t, sc.Run, 1)
	assert.Equal(t, 180_000_000_000, int(sc.Run[0].Timeout))
	assert.Equal(t, 1, sc.AllowedRetries)
	assert.Len(t, sc.Checkpoints, 2)
	assert.Equal(t, "count_gte", sc.Checkpoints[0].Condition.Type)
	assert.InDelta(t, 2.0, sc.Checkpoints[0].Condition.Value, 0)
	require.NotNil(t, sc.Fixture)
	assert.True(t, sc.Fixture.ReseedPerIteration)

	eliza := needPeer(t, "eliza")
	m, err := loadFile(filepath.Join(eliza, "github-issue-analysis.matrix.yaml"))
	require.NoError(t, err)
	require.Equal(t, scenario.KindMatrix, m.Kind)
	require.NotNil(t, m.Base)
	assert.Equal(t, "test-github-issues", m.Base.Scenario.ID)
	assert.Equal(t, "run[0].input", m.Matrix.Axes[0].Parameter)
}

// TestPeerInvalidFiles checks the findings that eliza/invalid/README.md
// lists, at their exact positions.
func TestPeerInvalidFiles(t *testing.T) {
	t.Parallel()
	dir := needPeer(t, "eliza/invalid")
	type finding struct {
		Line, Column        int
		Severity            scenario.Severity
		Path, Code, Suggest string
	}
	tests := map[string][]finding{
		"enhanced-demo.scenario.yaml": {
			{1, 1, scenario.Error, "environment", "required", ""},
			{1, 1, scenario.Error, "judgment", "required", ""},
		},
		"simple-test.scenario.yaml": {
			{1, 1, scenario.Error, "judgment", "required", ""},
			{12, 9, scenario.Error, "environment.type", "enum", ""},
			{13, 3, scenario.Warning, "environment.settings", "unknown-field", ""},
			{29, 3, scenario.Warning, "setup.initializeDatabase", "unknown-field", ""},
			{30, 3, scenario.Warning, "setup.seedData", "unknown-field", ""},
			{39, 15, scenario.Error, "run[0].evaluations[1].type", "enum", "execution_time"},
		},
	}
	for name, want := range tests {
		f, err := loadFile(filepath.Join(dir, name))
		require.Error(t, err, name)
		var got []finding
		for _, d := range f.Diagnostics {
			got = append(got, finding{d.Line, d.Column, d.Severity, d.Path.String(), d.Code, d.Suggestion})
		}
		assert.Equal(t, want, got, name)
	}
	f, _ := loadFile(filepath.Join(dir, "simple-test.scenario.yaml"))
	assert.Equal(t, `"test" is not one of local, e2b`, f.Diagnostics[1].Message)
}

// compileSchemaFile compiles a committed schema file with santhosh-tekuri's
// validator, as an editor or CI job using the published file would.
func compileSchemaFile(t *testing.T, data []byte) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	require.NoError(t, err)
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	require.NoError(t, c.AddResource("file:///schema.json", doc))
	sch, err := c.Compile("file:///schema.json")
	require.NoError(t, err)
	return sch
}

// instance turns a YAML or JSON file into a JSON instance for the validator.
func instance(t *testing.T, name string, data []byte) any {
	t.Helper()
	doc, ds := scenario.ParseDocument(name, data, scenario.Limits{})
	require.False(t, ds.HasErrors(), "%v", ds)
	js, err := json.Marshal(doc.Value)
	require.NoError(t, err)
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
	require.NoError(t, err)
	return v
}

// TestPublishedSchemaValidatesFiles uses the committed schema files, not the
// loader: they accept the peer and example files and reject a misspelt
// evaluation type.
func TestPublishedSchemaValidatesFiles(t *testing.T) {
	t.Parallel()
	schemas := map[scenario.Kind]*jsonschema.Schema{}
	for _, k := range scenario.SchemaKinds() {
		b, err := os.ReadFile(filepath.Join("schemas", k.String()+".schema.json"))
		require.NoError(t, err)
		schemas[k] = compileSchemaFile(t, b)
	}
	files := map[string][]byte{"typical.scenario.yaml": []byte(typicalScenario)}
	if _, err := os.Stat(peerDir); err == nil {
		for _, glob := range []string{"eliza/*.yaml", "ghx-scenarios/*.json"} {
			names, err := filepath.Glob(filepath.Join(peerDir, glob))
			require.NoError(t, err)
			for _, n := range names {
				b, err := os.ReadFile(n)
				require.NoError(t, err)
				files[n] = b
			}
		}
	}
	for name, data := range files {
		v := instance(t, name, data)
		k := scenario.DetectKind(name, v)
		require.Contains(t, schemas, k, name)
		assert.NoError(t, schemas[k].Validate(v), name)
	}

	bad := strings.Replace(typicalScenario, "type: regex_match", "type: regex_mach", 1)
	err := schemas[scenario.KindScenario].Validate(instance(t, "bad.scenario.yaml", []byte(bad)))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "/run/0/evaluations/1/type")
	assert.Contains(t, err.Error(), "'regex_match'")

	bad = strings.Replace(typicalScenario, `pattern: "#[0-9]+"`, `pattern: "#[0-9+"`, 1)
	err = schemas[scenario.KindScenario].Validate(instance(t, "bad.scenario.yaml", []byte(bad)))
	require.Error(t, err, "format: regex is asserted")
	assert.Contains(t, err.Error(), "/run/0/evaluations/1/pattern")
}

// Sentiment is a host's own evaluation type, registered like a built-in.
type Sentiment struct {
	// Mood is the mood the reply must have.
	Mood string `json:"mood" jsonschema:"enum=happy,enum=sad"`
	// MinScore is the sentiment score needed.
	MinScore *float64 `json:"min_score,omitempty" jsonschema:"minimum=0,maximum=1"`
}

func TestRegisteredEvaluationType(t *testing.T) {
	t.Parallel()
	reg := agenteval.New().Registries
	sentiment := evaluate.NewKind("sentiment", "The reply has a mood.", func(*Sentiment) (evaluate.Evaluator, error) {
		return evaluate.EvaluatorFunc(func(context.Context, evaluate.Input) (results.Evaluation, error) { return results.Evaluation{}, nil }), nil
	})
	require.NoError(t, reg.Evaluations.Register(sentiment))

	raw, err := scenario.GenerateSchema(scenario.KindScenario, reg)
	require.NoError(t, err)
	var s struct {
		Defs map[string]json.RawMessage `json:"$defs"`
	}
	require.NoError(t, json.Unmarshal(raw, &s))
	require.Contains(t, s.Defs, "Evaluation_sentiment")
	assert.Contains(t, string(s.Defs["Evaluation"]), `"sentiment"`)
	assert.Contains(t, string(s.Defs["Evaluation_sentiment"]), `"The reply has a mood."`)
	assert.Contains(t, string(s.Defs["Evaluation_sentiment"]), `"happy"`)
	builtin, err := scenario.GenerateSchema(scenario.KindScenario, builtins())
	require.NoError(t, err)
	assert.False(t, strings.Contains(string(builtin), `"sentiment"`), "the built-in schema lists no sentiment type")

	src := strings.Replace(typicalScenario, "      - type: string_contains\n        value: issues\n",
		"      - type: sentiment\n        mood: happy\n        min_score: 0.5\n", 1)
	l := scenario.NewLoader(reg, scenario.Options{})
	f, err := l.Load("custom.scenario.yaml", []byte(src))
	require.NoError(t, err)
	assert.Empty(t, f.Diagnostics)
	p, ok := f.Scenario.Run[0].Evaluations[0].Params.(*Sentiment)
	require.True(t, ok)
	assert.Equal(t, "happy", p.Mood)
	assert.InDelta(t, 0.5, *p.MinScore, 0)

	// The published schema for this registry accepts it too.
	assert.NoError(t, compileSchemaFile(t, raw).Validate(instance(t, "custom.scenario.yaml", []byte(src))))

	// A wrong mood is caught with a suggestion; the default loader does not know the type.
	f, err = l.Load("custom.scenario.yaml", []byte(strings.Replace(src, "mood: happy", "mood: hapy", 1)))
	require.Error(t, err)
	require.Len(t, f.Diagnostics, 1)
	d := f.Diagnostics[0]
	assert.Equal(t, []any{24, 15, "run[0].evaluations[0].mood", "enum", "happy"}, []any{d.Line, d.Column, d.Path.String(), d.Code, d.Suggestion})
	f, err = load("custom.scenario.yaml", []byte(src))
	require.Error(t, err)
	assert.Equal(t, "run[0].evaluations[0].type", f.Diagnostics[0].Path.String())

	newSentiment := func(*Sentiment) (evaluate.Evaluator, error) { return nil, nil }
	err = reg.Evaluations.Register(evaluate.NewKind("regex_match", "", newSentiment))
	assert.EqualError(t, err, `registering evaluation type "regex_match": already registered`)
	type shadow struct {
		Weight int `json:"weight"`
	}
	err = reg.Evaluations.Register(evaluate.NewKind("x", "", func(*shadow) (evaluate.Evaluator, error) { return nil, nil }))
	assert.ErrorContains(t, err, "shadows a field every evaluation has")
}
