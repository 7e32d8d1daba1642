package scenario

import (
	"strings"
)

// gitHubScenario is a GitHub eval scenario file (ghx JSON, camelCase) exactly
// as the format defines it. It is the loader's decoding step: its scenario
// method converts it to the runtime model (File.Scenario).
type gitHubScenario struct {
	// ID is `<words>-NNN`, such as pr-fix-mixed-threads-wf-001.
	ID string `json:"id" jsonschema:"pattern=^[a-z0-9]+(?:-[a-z0-9]+)*-\\d{3}$"`
	// Name is a human-readable title.
	Name string `json:"name" jsonschema:"minLength=1"`
	// Description says what the scenario checks.
	Description string `json:"description" jsonschema:"minLength=1"`
	// Prompt is the task given to the agent; {{placeholders}} bind from the fixture manifest.
	Prompt string `json:"prompt" jsonschema:"minLength=1"`
	// TimeoutMS bounds the agent's session in milliseconds.
	TimeoutMS int `json:"timeoutMs" jsonschema:"minimum=1"`
	// AllowedRetries is how many more attempts a failed run gets (default 0).
	AllowedRetries int `json:"allowedRetries,omitempty" jsonschema:"minimum=0,default=0"`
	// Tags label the scenario (default []).
	Tags []string `json:"tags,omitempty"`
	// Category is pr, issue, workflow, release or repo.
	Category string `json:"category" jsonschema:"enum=pr,enum=issue,enum=workflow,enum=release,enum=repo"`
	// Difficulty is basic, intermediate or advanced.
	Difficulty string `json:"difficulty" jsonschema:"enum=basic,enum=intermediate,enum=advanced"`
	// Fixture names the fixture resources the scenario needs.
	Fixture *gitHubFixture `json:"fixture,omitempty"`
	// Assertions hold the checkpoints.
	Assertions gitHubAssertions `json:"assertions"`
	// Evaluations (an agenteval extension) check the agent's reply to the prompt.
	Evaluations []Evaluation `json:"evaluations,omitempty"`
	// Judgment (an agenteval extension) sets the strategy; default all_pass.
	Judgment *Judgment `json:"judgment,omitempty"`
}

// gitHubFixture is the fixture block of a GitHub eval scenario.
type gitHubFixture struct {
	// Repo is the repository (owner/name), usually "{{fixture_repo}}".
	Repo string `json:"repo"`
	// Requires lists manifest fixture names.
	Requires []string `json:"requires"`
	// Bindings maps a placeholder name to a dot path into the manifest's fixtures.
	Bindings map[string]string `json:"bindings"`
	// ReseedPerIteration resets the fixture before each run (default false).
	ReseedPerIteration bool `json:"reseedPerIteration,omitempty" jsonschema:"default=false"`
	// SeedPerIteration creates fresh fixture resources before each run,
	// binds the scenario's {{variables}} to them and removes them after it
	// (default false).
	SeedPerIteration bool `json:"seedPerIteration,omitempty" jsonschema:"default=false"`
}

// gitHubAssertions holds a GitHub scenario's checkpoints.
type gitHubAssertions struct {
	// Checkpoints run after the session; all must pass.
	Checkpoints []Checkpoint `json:"checkpoints"`
	// ExpectedToolSequence is informational.
	ExpectedToolSequence []string `json:"expectedToolSequence,omitempty"`
	// ExpectedCapabilities is informational.
	ExpectedCapabilities []string `json:"expectedCapabilities,omitempty"`
}

// scenario converts the GitHub scenario to the runtime model: the prompt
// becomes one run step carrying the timeout and any evaluations; retries,
// fixture and checkpoints carry over; the environment is local and the
// judgment all_pass unless the file says otherwise.
func (g *gitHubScenario) scenario() *Scenario {
	s := &Scenario{
		ID:             g.ID,
		Name:           g.Name,
		Description:    g.Description,
		Tags:           append([]string{g.Category, g.Difficulty}, g.Tags...),
		Environment:    Environment{Type: "local"},
		Run:            []RunStep{{Name: "prompt", Input: g.Prompt, Timeout: Duration(int64(g.TimeoutMS) * 1e6), Evaluations: g.Evaluations}},
		Judgment:       Judgment{Strategy: "all_pass"},
		TimeoutMS:      g.TimeoutMS,
		AllowedRetries: g.AllowedRetries,
		Checkpoints:    g.Assertions.Checkpoints,
	}
	if g.Judgment != nil {
		s.Judgment = *g.Judgment
	}
	if g.Fixture != nil {
		s.Fixture = &Fixture{
			Repo:               g.Fixture.Repo,
			Requires:           g.Fixture.Requires,
			Bindings:           g.Fixture.Bindings,
			ReseedPerIteration: g.Fixture.ReseedPerIteration,
			SeedPerIteration:   g.Fixture.SeedPerIteration,
		}
	}
	return s
}

// Manifest is a fixture manifest: what a seeder created and where.
type Manifest struct {
	// SeedID identifies the seeding run; seeded resources carry it as a label.
	SeedID string `json:"seedId" jsonschema:"minLength=1"`
	// CreatedAt is when the seed ran (RFC 3339).
	CreatedAt string `json:"createdAt" jsonschema:"format=date-time"`
	// Repo is the fixture repository (owner/name).
	Repo string `json:"repo" jsonschema:"pattern=^[A-Za-z0-9-]+/[A-Za-z0-9._-]+$"`
	// Fixtures maps a fixture name to the resource seeded for it.
	Fixtures map[string]FixtureResource `json:"fixtures"`
}

// FixtureResource is one seeded GitHub resource.
type FixtureResource struct {
	// Type is the kind of resource: pr, issue, branch, label, ...
	Type string `json:"type" jsonschema:"minLength=1"`
	// Number is the issue or pull request number.
	Number float64 `json:"number"`
	// Repo is the repository (owner/name) holding the resource.
	Repo string `json:"repo" jsonschema:"minLength=1"`
	// Branch is the head branch of a pull request.
	Branch string `json:"branch,omitempty"`
	// Labels are the resource's labels.
	Labels []string `json:"labels,omitempty"`
	// Metadata holds further facts; originalSha is the seeded branch head a reset returns to.
	Metadata map[string]any `json:"metadata,omitempty"`
}

// Matrix is a *.matrix.yaml file: a sweep of a base scenario over parameters.
type Matrix struct {
	// Name is the sweep's title.
	Name string `json:"name" jsonschema:"minLength=1"`
	// Description says what the sweep explores.
	Description string `json:"description,omitempty"`
	// BaseScenario is the scenario file to vary, relative to the matrix file (a path relative to the directory ElizaOS ran in, as it resolved them before August 2025, loads with a warning).
	BaseScenario string `json:"base_scenario" jsonschema:"minLength=1"`
	// RunsPerCombination is how many times each combination runs (default 1).
	RunsPerCombination int `json:"runs_per_combination,omitempty" jsonschema:"minimum=1,default=1"`
	// Axes are the parameters and their values; the product of their sizes is the number of combinations.
	Axes []Axis `json:"matrix" jsonschema:"minItems=1"`
}

// Axis is one parameter of a matrix and the values it takes.
type Axis struct {
	// Parameter is a path into the scenario: run[0].conversation.max_turns, setup.virtual_fs["a.json"].
	Parameter string `json:"parameter" jsonschema:"minLength=1"`
	// Values are the values the parameter takes, any YAML values.
	Values []any `json:"values" jsonschema:"minItems=1"`
}

// ownerRepo splits "owner/name".
func ownerRepo(s string) (owner, name string, ok bool) {
	owner, name, ok = strings.Cut(s, "/")
	return owner, name, ok && owner != "" && name != "" && !strings.Contains(name, "/")
}
