package scenario

// Scenario is the one runtime model every file format converts to. An agent
// scenario (*.scenario.yaml) decodes into it directly; a GitHub eval scenario
// (ghx JSON) converts into it when loaded. Because both
// meet here, a YAML scenario may also carry a fixture and checkpoints, and a
// GitHub scenario may also carry evaluations and a judgment.
type Scenario struct {
	// ID names the scenario in job ids and reports. Optional in YAML, where it
	// defaults to the file name without its .scenario.yaml suffix, prefixed
	// by its directory when files of several directories run together.
	ID string `json:"id,omitempty" jsonschema:"pattern=^[A-Za-z0-9][A-Za-z0-9._-]*$"`
	// Name is a human-readable title.
	Name string `json:"name" agenteval:"freetext"`
	// Description says what the scenario checks and why.
	Description string `json:"description" agenteval:"freetext"`
	// Tags label the scenario for filtering and reports.
	Tags []string `json:"tags,omitempty"`
	// Plugins lists the plugins the agent under test loads: a name, or an object with options.
	Plugins []Plugin `json:"plugins,omitempty"`
	// Character configures the agent's persona and model; keys beyond the named ones are kept as free-form data.
	Character *Character `json:"character,omitempty"`
	// Environment selects where the run happens.
	Environment Environment `json:"environment"`
	// Setup prepares mocks and files before the first step.
	Setup *Setup `json:"setup,omitempty"`
	// Run is the ordered list of steps.
	Run []RunStep `json:"run"`
	// Judgment turns the evaluation results into one verdict.
	Judgment Judgment `json:"judgment"`
	// TimeoutMS bounds the whole run in milliseconds; 0 means no limit beyond the steps' own.
	TimeoutMS int `json:"timeout_ms,omitempty" jsonschema:"minimum=0"`
	// AllowedRetries is how many more attempts a failed run gets.
	AllowedRetries int `json:"allowed_retries,omitempty" jsonschema:"minimum=0"`
	// Fixture names the GitHub fixture resources the scenario needs and how their facts bind to {{placeholders}}.
	Fixture *Fixture `json:"fixture,omitempty"`
	// Checkpoints are checks on live GitHub state, run after the agent's session.
	Checkpoints []Checkpoint `json:"checkpoints,omitempty"`
}

// Plugin references a plugin of the agent under test. In files it is either a
// bare name (`- "@elizaos/plugin-sql"`) or an object.
type Plugin struct {
	// Name is the plugin's package name.
	Name string `json:"name" jsonschema:"minLength=1"`
	// Version pins a version (semver).
	Version string `json:"version,omitempty" jsonschema:"pattern=^\\d+\\.\\d+\\.\\d+$"`
	// Config is passed to the plugin as-is.
	Config map[string]any `json:"config,omitempty"`
	// Enabled switches the plugin off when false.
	Enabled *bool `json:"enabled,omitempty" jsonschema:"default=true"`
}

// IsEnabled reports whether the plugin is enabled (the default).
func (p Plugin) IsEnabled() bool { return p.Enabled == nil || *p.Enabled }

// Character configures the agent under test. Only the named fields have a
// meaning to agenteval; any other keys are kept in Extra and passed to the agent.
type Character struct {
	// Name is the character's name.
	Name string `json:"name,omitempty" agenteval:"freetext"`
	// Bio describes the character, as one string or a list of lines.
	Bio StringList `json:"bio,omitempty"`
	// System is the system prompt.
	System string `json:"system,omitempty" agenteval:"freetext"`
	// SystemPrompt is more of the system prompt, after System (ElizaOS's
	// matrix documentation sweeps character.system_prompt).
	SystemPrompt string `json:"system_prompt,omitempty"`
	// LLM selects and tunes the model behind the character: llm.model is
	// the model the built-in openai agent sends.
	LLM *LLMConfig `json:"llm,omitempty"`
	// Temperature is the sampling temperature, as the format documents it
	// at the top of the character; llm.temperature wins when both are set.
	Temperature *float64 `json:"temperature,omitempty" jsonschema:"minimum=0,maximum=2"`
	// MaxTokens bounds the reply length; llm.max_tokens wins when both are set.
	MaxTokens int `json:"max_tokens,omitempty" jsonschema:"minimum=1"`
	// Extra holds every further key of the character as free-form data.
	Extra map[string]any `json:"-"`
}

// Sampling returns the model the character names (llm.model, "" when it
// names none), its temperature (llm.temperature, else temperature; nil when
// neither is set) and its reply bound (llm.max_tokens, else max_tokens; 0
// when neither is set). A nil character names nothing.
func (c *Character) Sampling() (model string, temperature *float64, maxTokens int) {
	if c == nil {
		return "", nil, 0
	}
	temperature, maxTokens = c.Temperature, c.MaxTokens
	if l := c.LLM; l != nil {
		model = l.Model
		if l.Temperature != nil {
			temperature = l.Temperature
		}
		if l.MaxTokens > 0 {
			maxTokens = l.MaxTokens
		}
	}
	return model, temperature, maxTokens
}

// LLMConfig selects a model and its sampling settings.
type LLMConfig struct {
	// Model is the model name.
	Model string `json:"model,omitempty" agenteval:"freetext"`
	// Temperature is the sampling temperature.
	Temperature *float64 `json:"temperature,omitempty" jsonschema:"minimum=0,maximum=2"`
	// MaxTokens bounds the reply length.
	MaxTokens int `json:"max_tokens,omitempty" jsonschema:"minimum=1"`
	// Extra holds further model settings as free-form data.
	Extra map[string]any `json:"-"`
}

// Environment selects where a run happens. `local` (a fresh directory on this
// machine) is built in; other types come from environments a host registers.
type Environment struct {
	// Type names a registered environment type (agenteval types environments).
	Type string `json:"type"`
	// Setup tunes the environment.
	Setup *EnvironmentSetup `json:"setup,omitempty"`
}

// EnvironmentSetup tunes an environment.
type EnvironmentSetup struct {
	// WorkingDirectory is a sub-directory of the run's directory to work in:
	// virtual_fs, code steps, commands, file checks and the agent all start
	// from it. It must stay inside the run's directory.
	WorkingDirectory string `json:"workingDirectory,omitempty"`
	// Timeout bounds environment setup (milliseconds, or a duration such as "30s").
	Timeout Duration `json:"timeout,omitempty"`
	// Cleanup removes the run's directory afterwards (default true).
	Cleanup *bool `json:"cleanup,omitempty" jsonschema:"default=true"`
	// Isolate gives every run its own directory (default true).
	Isolate *bool `json:"isolate,omitempty" jsonschema:"default=true"`
}

// Setup prepares a run.
type Setup struct {
	// Mocks replace service calls the agent makes.
	Mocks []Mock `json:"mocks,omitempty"`
	// VirtualFS maps file paths to their content. Paths are relative to the
	// run's working directory (environment.setup.workingDirectory, else the
	// run's directory), where file checks look too.
	VirtualFS map[string]string `json:"virtual_fs,omitempty" agenteval:"freetext"`
}

// Mock replaces one service method while a run lasts.
type Mock struct {
	// Service is the service name the agent asks for.
	Service string `json:"service,omitempty"`
	// Method is the method of the service.
	Method string `json:"method" jsonschema:"minLength=1"`
	// When restricts the calls the mock answers; absent, it answers every call.
	When *MockWhen `json:"when,omitempty"`
	// Response is returned as-is.
	Response any `json:"response,omitempty"`
	// ResponseFn is a template (${input.x}, ${args[0]}) rendered over the call; text starting with { or [ is parsed as JSON.
	ResponseFn string `json:"responseFn,omitempty" agenteval:"freetext"`
	// Error makes the call fail.
	Error *MockError `json:"error,omitempty"`
	// Metadata tunes delay and probability.
	Metadata *MockMetadata `json:"metadata,omitempty"`
}

// MockWhen holds the conditions under which a mock answers; all given must hold.
type MockWhen struct {
	// Input is matched as a deep partial match against the call's input.
	Input map[string]any `json:"input,omitempty"`
	// Args must equal the call's whole argument list.
	Args []any `json:"args,omitempty"`
	// PartialArgs must equal the first arguments of the call.
	PartialArgs []any `json:"partialArgs,omitempty"`
	// Context is matched against the call context's keys.
	Context map[string]any `json:"context,omitempty"`
	// Matcher is one comparison over the call, such as "${input.owner} == 'acme'".
	Matcher string `json:"matcher,omitempty"`
}

// MockError is the error a mock returns.
type MockError struct {
	// Code is a machine-readable code.
	Code string `json:"code" jsonschema:"minLength=1"`
	// Message says what went wrong.
	Message string `json:"message" agenteval:"freetext"`
	// Status is an HTTP-like status.
	Status int `json:"status,omitempty"`
}

// Error formats the mock error as "code: message": a *MockError is also
// the error an agent's call to that mock returns (runner.MockCaller).
func (e *MockError) Error() string { return e.Code + ": " + e.Message }

// MockMetadata tunes how a mock answers.
type MockMetadata struct {
	// Delay waits this many milliseconds before answering.
	Delay int `json:"delay,omitempty" jsonschema:"minimum=0"`
	// Probability is the chance (0..1) that the mock applies to a matching call; drawn from the run's seeded source.
	Probability *float64 `json:"probability,omitempty" jsonschema:"minimum=0,maximum=1"`
}

// RunStep is one step of a run: a message to the agent (input), a
// multi-turn conversation, or a code snippet run in the run's directory.
type RunStep struct {
	// Name labels the step in reports.
	Name string `json:"name,omitempty" agenteval:"freetext"`
	// Input is the message sent to the agent (the first user message of a conversation).
	Input string `json:"input,omitempty" agenteval:"freetext"`
	// Code is a snippet run in the run's directory instead of talking to the agent.
	Code string `json:"code,omitempty"`
	// Lang is the interpreter for code: sh, bash, python3 or node.
	Lang string `json:"lang,omitempty" jsonschema:"enum=sh,enum=bash,enum=shell,enum=python,enum=python3,enum=node,enum=javascript,enum=js"`
	// Timeout bounds the step (milliseconds, or a duration such as "30s").
	Timeout Duration `json:"timeout,omitempty"`
	// Evaluations check the step's outcome.
	Evaluations []Evaluation `json:"evaluations,omitempty"`
	// Conversation makes the step multi-turn with a simulated user.
	Conversation *Conversation `json:"conversation,omitempty"`
}

// Conversation configures a multi-turn step with a simulated user.
type Conversation struct {
	// MaxTurns bounds the number of agent turns.
	MaxTurns int `json:"max_turns" jsonschema:"minimum=1"`
	// TimeoutPerTurnMS bounds each agent turn.
	TimeoutPerTurnMS int `json:"timeout_per_turn_ms,omitempty" jsonschema:"minimum=1,default=30000"`
	// TotalTimeoutMS bounds the whole conversation.
	TotalTimeoutMS int `json:"total_timeout_ms,omitempty" jsonschema:"minimum=1,default=300000"`
	// UserSimulator describes the simulated user.
	UserSimulator *UserSimulator `json:"user_simulator,omitempty"`
	// TerminationConditions end the conversation early.
	TerminationConditions []TerminationCondition `json:"termination_conditions,omitempty"`
	// TurnEvaluations run after every agent turn.
	TurnEvaluations []Evaluation `json:"turn_evaluations,omitempty"`
	// FinalEvaluations run once the conversation ends.
	FinalEvaluations []Evaluation `json:"final_evaluations,omitempty"`
	// DebugOptions control logging.
	DebugOptions *DebugOptions `json:"debug_options,omitempty"`
}

// UserSimulator describes the simulated user of a conversation.
type UserSimulator struct {
	// ModelType selects the model behind the simulated user.
	ModelType string `json:"model_type,omitempty" jsonschema:"default=TEXT_LARGE"`
	// Temperature is the sampling temperature.
	Temperature *float64 `json:"temperature,omitempty" jsonschema:"minimum=0,maximum=2,default=0.7"`
	// MaxTokens bounds each simulated message.
	MaxTokens int `json:"max_tokens,omitempty" jsonschema:"minimum=1,default=200"`
	// Persona says who the user is.
	Persona string `json:"persona" agenteval:"freetext"`
	// Objective says what the user wants.
	Objective string `json:"objective" agenteval:"freetext"`
	// Style is how the user writes.
	Style string `json:"style,omitempty" agenteval:"freetext"`
	// Constraints are rules the user follows.
	Constraints []string `json:"constraints,omitempty"`
	// EmotionalState colours the user's messages.
	EmotionalState string `json:"emotional_state,omitempty" agenteval:"freetext"`
	// KnowledgeLevel is beginner, intermediate or expert.
	KnowledgeLevel string `json:"knowledge_level,omitempty" jsonschema:"enum=beginner,enum=intermediate,enum=expert,default=intermediate"`
}

// TerminationCondition ends a conversation when it holds.
type TerminationCondition struct {
	// Type names a registered termination type (agenteval types terminations).
	Type string `json:"type"`
	// Description says what the condition means (the judge reads it).
	Description string `json:"description,omitempty" agenteval:"freetext"`
	// Keywords that end the conversation when the right speaker says one.
	Keywords []string `json:"keywords,omitempty"`
	// LLMJudge asks a model whether the condition holds.
	LLMJudge *TerminationJudge `json:"llm_judge,omitempty"`
}

// TerminationJudge asks a model whether a termination condition holds.
type TerminationJudge struct {
	// Prompt is the question to the model.
	Prompt string `json:"prompt" agenteval:"freetext"`
	// Threshold is the score at or above which the condition holds.
	Threshold *float64 `json:"threshold,omitempty" jsonschema:"minimum=0,maximum=1,default=0.8"`
}

// DebugOptions control conversation logging.
type DebugOptions struct {
	// LogUserSimulation logs the simulated user's prompts.
	LogUserSimulation bool `json:"log_user_simulation,omitempty"`
	// LogTurnDecisions logs why each turn continued or stopped.
	LogTurnDecisions bool `json:"log_turn_decisions,omitempty"`
	// ExportFullTranscript keeps the full transcript in results (default true).
	ExportFullTranscript *bool `json:"export_full_transcript,omitempty" jsonschema:"default=true"`
}

// Judgment turns the list of results into one verdict.
type Judgment struct {
	// Strategy names a registered judgment strategy (agenteval types strategies).
	Strategy string `json:"strategy"`
	// Threshold is the share of weight that must pass under weighted (default 0.5).
	Threshold *float64 `json:"threshold,omitempty" jsonschema:"minimum=0,maximum=1"`
	// Weights weighs evaluations and checkpoints under the weighted strategy
	// (ElizaOS documents weighted as "weighted scoring (requires weights
	// configuration)"). A key names an evaluation's description, an
	// evaluation type, or a checkpoint's id. An evaluation's weight is the
	// first of: its own weight, the weight here of its description, the
	// weight here of its type, 1; a checkpoint's is its own weight, the
	// weight here of its id, 1. A per-evaluation weight therefore always
	// wins over weights, and weights fill in only what the file left
	// unweighted. Weights are numbers ≥ 0; a key that names nothing is an
	// error, and so is a weighted judgment in which nothing weighs more
	// than 0. Under any other strategy weights change nothing (a warning).
	Weights map[string]float64 `json:"weights,omitempty"`
}

// EvaluationWeight returns e's weight under j (see Weights): e's own, else
// j's for e's description or type; nil when none is set (the default 1).
func (j *Judgment) EvaluationWeight(e *Evaluation) *float64 {
	if e.Weight != nil {
		return e.Weight
	}
	if e.Description != "" {
		if w, ok := j.Weights[e.Description]; ok {
			return &w
		}
	}
	if w, ok := j.Weights[e.Type]; ok {
		return &w
	}
	return nil
}

// CheckpointWeight returns c's weight under j (see Weights): c's own, else
// j's for c's id; nil when none is set (the default 1).
func (j *Judgment) CheckpointWeight(c *Checkpoint) *float64 {
	if c.Weight != nil {
		return c.Weight
	}
	if w, ok := j.Weights[c.ID]; ok {
		return &w
	}
	return nil
}

// Fixture names the fixture resources a scenario needs.
type Fixture struct {
	// Repo is the repository the fixture lives in (owner/name, often "{{fixture_repo}}").
	Repo string `json:"repo"`
	// Requires lists the manifest fixture names the scenario needs.
	Requires []string `json:"requires"`
	// Bindings maps a placeholder name to a dot path into the manifest's fixtures (pr.number).
	Bindings map[string]string `json:"bindings"`
	// ReseedPerIteration resets the fixture before each run.
	ReseedPerIteration bool `json:"reseed_per_iteration,omitempty"`
	// SeedPerIteration creates fresh fixture resources before each run (from
	// the seed file's declarations), binds the scenario's {{variables}} to
	// them and removes them after it.
	SeedPerIteration bool `json:"seed_per_iteration,omitempty"`
}

// Checkpoint runs a capability task after the session and tests its result.
type Checkpoint struct {
	// ID names the checkpoint; unique within a scenario.
	ID string `json:"id" jsonschema:"minLength=1"`
	// Description says what the checkpoint proves.
	Description string `json:"description" jsonschema:"minLength=1" agenteval:"freetext"`
	// Task is the capability task to run, such as pr.commits.list.
	Task string `json:"task" jsonschema:"minLength=1"`
	// Input is the task's input.
	Input map[string]any `json:"input"`
	// Condition tests the task's result.
	Condition Condition `json:"condition"`
	// Weight counts the checkpoint under the weighted strategy (default 1).
	Weight *float64 `json:"weight,omitempty" jsonschema:"minimum=0"`
	// Critical fails the verdict whenever this checkpoint fails.
	Critical bool `json:"critical,omitempty"`
}

// Condition tests a checkpoint's result. Type selects which other fields apply.
type Condition struct {
	// Type names a registered condition type (agenteval types conditions).
	Type string `json:"type"`
	// Value is the number (count_*, field_gte), scalar (field_equals) or text (field_contains) to compare with.
	Value any `json:"value,omitempty"`
	// Path is a dotted path into the result (items.0.title, items.length).
	Path string `json:"path,omitempty"`
	// Scorer names a registered custom condition.
	Scorer string `json:"scorer,omitempty"`
}
