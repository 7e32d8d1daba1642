package plan_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/invopop/jsonschema"
	santhosh "github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/matrix"
	"github.com/agenteval/agenteval/plan"
)

var update = flag.Bool("update", false, "rewrite plan.schema.json")

// generateSchema reflects Plan, with its doc comments, into the JSON
// Schema that documents `agenteval plan --format json`.
func generateSchema(t *testing.T) []byte {
	t.Helper()
	r := &jsonschema.Reflector{ExpandedStruct: true}
	require.NoError(t, r.AddGoComments("github.com/agenteval/agenteval/plan", "."))
	s := r.Reflect(&plan.Plan{})
	s.ID = "https://github.com/agenteval/agenteval/schemas/plan.schema.json"
	s.Title = "agenteval plan --format json (version 1)"
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	require.NoError(t, enc.Encode(s))
	return buf.Bytes()
}

// TestSchemaUpToDate keeps plan.schema.json equal to the Go types (run
// go test ./plan -run TestSchemaUpToDate -update after changing them).
func TestSchemaUpToDate(t *testing.T) {
	got := generateSchema(t)
	if *update {
		require.NoError(t, os.WriteFile("plan.schema.json", got, 0o644))
	}
	want, err := os.ReadFile("plan.schema.json")
	require.NoError(t, err)
	require.Equal(t, string(want), string(got), "plan.schema.json is stale: go test ./plan -run TestSchemaUpToDate -update")
	if !*update {
		require.Equal(t, string(want), string(plan.Schema()), "Schema returns the embedded file")
	}
}

// TestPlanJSONMatchesItsSchema: what Make produces, with known and unknown
// costs, validates against plan.schema.json.
func TestPlanJSONMatchesItsSchema(t *testing.T) {
	t.Parallel()
	doc, err := santhosh.UnmarshalJSON(bytes.NewReader(must(os.ReadFile("plan.schema.json"))))
	require.NoError(t, err)
	c := santhosh.NewCompiler()
	require.NoError(t, c.AddResource("plan.schema.json", doc))
	sch, err := c.Compile("plan.schema.json")
	require.NoError(t, err)
	for _, opts := range []plan.Options{{AgentModel: "gpt-4o", UserModel: "gpt-4o", JudgeModel: "gpt-4o"}, {AgentModel: "unknown-model"}} {
		p := makePlan(t, 2, matrix.Shard{}, opts, "testdata/talk.scenario.yaml")
		js, err := json.Marshal(p)
		require.NoError(t, err)
		inst, err := santhosh.UnmarshalJSON(strings.NewReader(string(js)))
		require.NoError(t, err)
		require.NoError(t, sch.Validate(inst), string(js))
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
