package scenario

import (
	"fmt"
	"os"
	"strings"
	"testing"

	invopop "github.com/invopop/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// keywordParams is a host's evaluation type whose parameters use every
// assertion keyword invopop emits from struct tags, and more through
// JSONSchemaExtend, so that TestHostTypeDiagnostics reaches keywords the
// built-in types do not use.
type keywordParams struct {
	Score  float64           `json:"score" jsonschema:"exclusiveMinimum=0,exclusiveMaximum=1000000,multipleOf=0.5"`
	Name   string            `json:"name,omitempty" jsonschema:"minLength=2,maxLength=5,pattern=^[a-z]+$"`
	Tags   []string          `json:"tags,omitempty" jsonschema:"minItems=1,maxItems=3,uniqueItems=true"`
	Level  int               `json:"level,omitempty" jsonschema:"enum=1,enum=2,enum=3"`
	Mode   string            `json:"mode,omitempty" jsonschema:"enum=fast,enum=slow"`
	Labels map[string]string `json:"labels,omitempty"`
	Either any               `json:"either,omitempty" jsonschema:"oneof_type=string;integer"`
	Pair   []any             `json:"pair,omitempty"`
}

func (keywordParams) JSONSchemaExtend(s *invopop.Schema) {
	one, three := uint64(1), uint64(3)
	if labels, ok := s.Properties.Get("labels"); ok {
		labels.MinProperties, labels.MaxProperties = &one, &three
		labels.PropertyNames = &invopop.Schema{Pattern: "^[a-z]+$"}
	}
	if pair, ok := s.Properties.Get("pair"); ok {
		pair.PrefixItems = []*invopop.Schema{{Type: "string"}, {Type: "number"}}
		pair.Items = invopop.FalseSchema
		pair.Contains = &invopop.Schema{Type: "number"}
	}
	s.DependentRequired = map[string][]string{"mode": {"level"}}
	s.Not = withProperty(&invopop.Schema{Required: []string{"name"}}, "name", &invopop.Schema{Const: "root"})
	s.If = withProperty(&invopop.Schema{Required: []string{"level"}}, "level", &invopop.Schema{Const: 3})
	s.Then = &invopop.Schema{Required: []string{"tags"}}
	s.Else = withProperty(&invopop.Schema{}, "score", &invopop.Schema{Maximum: "500"})
}

func withProperty(s *invopop.Schema, name string, p *invopop.Schema) *invopop.Schema {
	s.Properties = invopop.NewProperties()
	s.Properties.Set(name, p)
	return s
}

// hostRegistries are the built-in vocabulary and the host's type.
type hostRegistries struct{}

func (hostRegistries) Version() uint64 { return 1 }

func (hostRegistries) Vocabulary() *Vocabulary {
	v := testRegistries{}.Vocabulary()
	v.Evaluations = append(v.Evaluations, EvaluationType{Name: "host_check", NewParams: func() any { return new(keywordParams) }})
	return v
}

// hostDocuments use the host's type, well and badly.
var hostDocuments = []string{
	`{type: host_check, score: 1.5}`,
	`{type: host_check, score: 0}`,
	`{type: host_check, score: 1000000}`,
	`{type: host_check, score: 1234567.25, name: Root}`,
	`{type: host_check, score: 600, level: 2}`,
	`{type: host_check, score: 0.25, name: a, tags: [], level: 3}`,
	`{type: host_check, score: 3, name: abcdef, tags: [x, y, x, z], level: 4, mode: medium}`,
	`{type: host_check, score: 3, mode: fast}`,
	`{type: host_check, score: 3, name: root}`,
	`{type: host_check, score: 3, labels: {}}`,
	`{type: host_check, score: 3, labels: {a: x, B: y, c: z, d: w}}`,
	`{type: host_check, score: 3, either: 1.5}`,
	`{type: host_check, score: 3, either: [1]}`,
	`{type: host_check, score: 3, pair: [a, 1]}`,
	`{type: host_check, score: 3, pair: [1, a, 3]}`,
	`{type: host_check, score: 3, pair: [a]}`,
	`{type: host_check, score: "3", level: 3, tags: [a]}`,
	`{type: host_check}`,
}

func hostScenario(eval string) string {
	return "name: h\ndescription: d\nenvironment: {type: local}\nrun:\n  - input: hi\n    evaluations:\n      - " + eval + "\njudgment: {strategy: all_pass}\n"
}

// TestHostTypeDiagnostics loads a scenario per host document and compares
// every diagnostic (position, path, message, suggestion, code) with
// testdata/host-diagnostics.golden: a host's own evaluation type, whose
// schema uses keywords the built-in types do not, is reported as precisely
// as a built-in one. Run with -update to rewrite the file after a
// deliberate change.
func TestHostTypeDiagnostics(t *testing.T) {
	t.Parallel()
	l := NewLoader(hostRegistries{}, Options{})
	var b strings.Builder
	for _, eval := range hostDocuments {
		f, _ := l.Load("h.scenario.yaml", []byte(hostScenario(eval)))
		require.NotNil(t, f, eval)
		fmt.Fprintf(&b, "# %s\n", eval)
		for _, d := range f.Diagnostics.Sort() {
			fmt.Fprintf(&b, "%s [%s]\n", d, d.Code)
		}
	}
	const golden = "testdata/host-diagnostics.golden"
	if *update {
		require.NoError(t, os.WriteFile(golden, []byte(b.String()), 0o644))
		return
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err)
	assert.Equal(t, string(want), b.String())
}

// TestHostStringLengthMessages: a host's minLength above 1 and its
// maxLength are reported with the bound and the length, not as "empty".
func TestHostStringLengthMessages(t *testing.T) {
	t.Parallel()
	l := NewLoader(hostRegistries{}, Options{})
	for eval, want := range map[string]string{
		`{type: host_check, score: 3, name: a}`:      "run[0].evaluations[0].name: needs at least 2 character(s), has 1",
		`{type: host_check, score: 3, name: abcdef}`: "run[0].evaluations[0].name: takes at most 5 character(s), has 6",
		`{type: host_check, score: 3, name: ""}`:     "run[0].evaluations[0].name: needs at least 2 character(s), has 0",
	} {
		f, _ := l.Load("h.scenario.yaml", []byte(hostScenario(eval)))
		if !assert.NotNil(t, f, eval) {
			continue
		}
		var got []string
		for _, d := range f.Diagnostics.Errors() {
			got = append(got, d.Path.String()+": "+d.Message)
		}
		assert.Contains(t, got, want, eval)
	}
}
