// Package evalparams holds the parameter structs of the built-in evaluation
// types: what a scenario file may say under each built-in `type:`. Their
// json and jsonschema tags and doc comments become the generated JSON
// Schema (package scenario reflects them, under these names); their
// semantics (what passes, how the score is computed) are documented on the
// evaluators in package evaluate, which registers them. A loaded
// evaluation's Params holds one of these.
package evalparams

// StringContains checks that the text under test contains Value.
type StringContains struct {
	// Value is the text to look for.
	Value string `json:"value" agenteval:"freetext"`
	// CaseSensitive compares case-sensitively (default false).
	CaseSensitive bool `json:"case_sensitive,omitempty"`
}

// RegexMatch checks that the text under test matches Pattern (RE2 syntax).
type RegexMatch struct {
	// Pattern is the regular expression.
	Pattern string `json:"pattern" jsonschema:"format=regex"`
	// CaseSensitive matches case-sensitively (default false).
	CaseSensitive bool `json:"case_sensitive,omitempty"`
}

// LLMJudge asks a model to judge the step against a prompt and expectation.
type LLMJudge struct {
	// Prompt is the question the judge answers.
	Prompt string `json:"prompt" jsonschema:"minLength=1" agenteval:"freetext"`
	// Expected is yes, no, a score threshold ("0.8+", "<0.3") or a free-text expectation.
	Expected string `json:"expected" jsonschema:"minLength=1"`
	// Capabilities are separate points the judge rates one by one.
	Capabilities []string `json:"capabilities,omitempty" jsonschema:"minItems=1"`
	// ModelType selects the judge model.
	ModelType string `json:"model_type,omitempty"`
	// Temperature is the judge's sampling temperature.
	Temperature *float64 `json:"temperature,omitempty" jsonschema:"minimum=0,maximum=2"`
	// JSONSchema asks the judge for structured output of this shape.
	JSONSchema map[string]any `json:"json_schema,omitempty"`
	// Samples asks the judge this many times and takes the majority (default 1).
	Samples int `json:"samples,omitempty" jsonschema:"minimum=1"`
}

// TrajectoryContainsAction checks that the step's actions include Action.
type TrajectoryContainsAction struct {
	// Action is the action (tool) name.
	Action string `json:"action" jsonschema:"minLength=1"`
	// Args, when given, must be contained in the action's arguments (partial match).
	Args map[string]any `json:"args,omitempty"`
}

// ExecutionTime checks the agent's own time for the step.
type ExecutionTime struct {
	// MaxDurationMS is the longest acceptable duration.
	MaxDurationMS *float64 `json:"max_duration_ms,omitempty" jsonschema:"minimum=0"`
	// MinDurationMS is the shortest acceptable duration.
	MinDurationMS *float64 `json:"min_duration_ms,omitempty" jsonschema:"minimum=0"`
	// TargetDurationMS is the ideal duration; the score falls with distance from it.
	TargetDurationMS *float64 `json:"target_duration_ms,omitempty" jsonschema:"minimum=0"`
}

// FileExists checks that a file exists in the run's directory.
type FileExists struct {
	// Path is relative to the run's directory.
	Path string `json:"path" jsonschema:"minLength=1"`
}

// FileContains checks that a file in the run's directory contains Value.
type FileContains struct {
	// Path is relative to the run's directory.
	Path string `json:"path" jsonschema:"minLength=1"`
	// Value is the text to look for.
	Value string `json:"value" agenteval:"freetext"`
	// CaseSensitive compares case-sensitively (default true for files).
	CaseSensitive *bool `json:"case_sensitive,omitempty" jsonschema:"default=true"`
}

// CommandExitCodeIs runs a command in the run's directory and checks its exit code.
type CommandExitCodeIs struct {
	// Command is run with sh -c.
	Command string `json:"command" jsonschema:"minLength=1"`
	// ExpectedCode is the exit code that passes (default 0).
	ExpectedCode int `json:"expected_code,omitempty"`
	// TimeoutMS bounds the command (default 30000).
	TimeoutMS int `json:"timeout_ms,omitempty" jsonschema:"minimum=1,default=30000"`
}

// ConversationLength checks the number of turns of a conversation.
type ConversationLength struct {
	// MinTurns is the fewest acceptable turns.
	MinTurns int `json:"min_turns,omitempty" jsonschema:"minimum=1"`
	// MaxTurns is the most acceptable turns.
	MaxTurns int `json:"max_turns,omitempty" jsonschema:"minimum=1"`
	// OptimalTurns is the ideal count; the score falls with distance from it.
	OptimalTurns int `json:"optimal_turns,omitempty" jsonschema:"minimum=1"`
	// TargetRange is an inclusive [low, high] range of turns with low < high.
	TargetRange []int `json:"target_range,omitempty" jsonschema:"minItems=2,maxItems=2"`
}

// ConversationFlow checks that patterns occur in a conversation.
type ConversationFlow struct {
	// RequiredPatterns must each be found in the transcript.
	RequiredPatterns []string `json:"required_patterns" jsonschema:"enum=question_then_answer,enum=problem_then_solution,enum=clarification_cycle,enum=empathy_then_solution,enum=escalation_pattern"`
	// FlowQualityThreshold is the share of patterns that must be found (default 0.7).
	FlowQualityThreshold *float64 `json:"flow_quality_threshold,omitempty" jsonschema:"minimum=0,maximum=1,default=0.7"`
}

// SetDefaults fills the documented defaults.
func (c *ConversationFlow) SetDefaults() { SetDefault(&c.FlowQualityThreshold, 0.7) }

// UserSatisfaction estimates whether the simulated user ended satisfied.
type UserSatisfaction struct {
	// SatisfactionThreshold is the score needed to pass (default 0.7).
	SatisfactionThreshold *float64 `json:"satisfaction_threshold,omitempty" jsonschema:"minimum=0,maximum=1,default=0.7"`
	// MeasurementMethod is sentiment_analysis, keyword_analysis or llm_judge (default llm_judge).
	MeasurementMethod string `json:"measurement_method,omitempty" jsonschema:"enum=sentiment_analysis,enum=keyword_analysis,enum=llm_judge,default=llm_judge"`
	// Indicators are words that signal satisfaction or its absence.
	Indicators *SatisfactionIndicators `json:"indicators,omitempty"`
}

// SetDefaults fills the documented defaults.
func (u *UserSatisfaction) SetDefaults() {
	SetDefault(&u.SatisfactionThreshold, 0.7)
	if u.MeasurementMethod == "" {
		u.MeasurementMethod = "llm_judge"
	}
}

// SatisfactionIndicators are words that signal satisfaction or its absence.
type SatisfactionIndicators struct {
	// Positive words signal satisfaction.
	Positive []string `json:"positive,omitempty"`
	// Negative words signal dissatisfaction.
	Negative []string `json:"negative,omitempty"`
}

// ContextRetention checks that the agent remembers facts given earlier.
type ContextRetention struct {
	// TestMemoryOf lists the facts the agent must remember.
	TestMemoryOf []string `json:"test_memory_of" jsonschema:"minItems=1"`
	// RetentionTurns is how many turns later the facts must still be used (default 3).
	RetentionTurns int `json:"retention_turns,omitempty" jsonschema:"minimum=1,default=3"`
	// MemoryAccuracyThreshold is the share of facts that must be remembered (default 0.8).
	MemoryAccuracyThreshold *float64 `json:"memory_accuracy_threshold,omitempty" jsonschema:"minimum=0,maximum=1,default=0.8"`
}

// SetDefaults fills the documented defaults.
func (c *ContextRetention) SetDefaults() {
	if c.RetentionTurns == 0 {
		c.RetentionTurns = 3
	}
	SetDefault(&c.MemoryAccuracyThreshold, 0.8)
}

// TrajectoryMatch compares the step's actions with an expected list.
type TrajectoryMatch struct {
	// Expected is the list of actions to compare with.
	Expected []ExpectedAction `json:"expected" jsonschema:"minItems=1"`
	// Mode is strict (same actions, same order), unordered (same actions, any order),
	// subset (every actual action is expected) or superset (every expected action occurs).
	Mode string `json:"mode,omitempty" jsonschema:"enum=strict,enum=unordered,enum=subset,enum=superset,default=strict"`
	// ArgsMatch is how arguments compare unless an action says otherwise: exact, partial or ignore.
	ArgsMatch string `json:"args_match,omitempty" jsonschema:"enum=exact,enum=partial,enum=ignore,default=ignore"`
}

// SetDefaults fills the documented defaults.
func (t *TrajectoryMatch) SetDefaults() {
	if t.Mode == "" {
		t.Mode = "strict"
	}
	if t.ArgsMatch == "" {
		t.ArgsMatch = "ignore"
	}
}

// ExpectedAction is one action of a TrajectoryMatch.
type ExpectedAction struct {
	// Action is the action (tool) name.
	Action string `json:"action" jsonschema:"minLength=1"`
	// Args are the expected arguments.
	Args map[string]any `json:"args,omitempty"`
	// ArgsMatch overrides the evaluation's args_match for this action.
	ArgsMatch string `json:"args_match,omitempty" jsonschema:"enum=exact,enum=partial,enum=ignore"`
}

// SetDefault sets *p to v when the file left it out (scenario's defaults
// use it too).
func SetDefault(p **float64, v float64) {
	if *p == nil {
		*p = &v
	}
}
