package judge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/agenteval/agenteval/internal/expect"
	"github.com/agenteval/agenteval/llm"
)

// Config configures a [Judge]. Only Model is required.
type Config struct {
	// Model answers the evaluation prompts.
	Model llm.Model
	// ModelName names Model in cache keys; empty means the name from its
	// Name method ([llm.Namer]). New refuses a Cache when neither gives a name,
	// because verdicts of different models must never be mixed up.
	ModelName string
	// Models serves Input.ModelType: a name found here selects that model
	// (named in cache keys by its Namer name, else by the map key). A name
	// not found is passed to Model as Request.Model, which an OpenAI
	// endpoint serving several models understands.
	Models map[string]llm.Model
	// Temperature is used when an Input sets none. nil means 0, the most
	// repeatable choice for a judge; raise it together with Samples when
	// sampling several verdicts, or they will mostly agree by construction.
	Temperature *float64
	// MaxTokens bounds each answer; 0 leaves it to the provider.
	MaxTokens int
	// Samples is how many answers to combine when an Input sets none;
	// values below 1 mean 1.
	Samples int
	// Seed, when set, is sent with each request, plus the sample index, so
	// samples are reproducible but not identical where the provider honours
	// seeds.
	Seed *int64
	// Cache, when set, stores each answer so that an identical request
	// (same model, messages, settings and sample index) is not sent twice.
	Cache llm.Cache
}

// Input is one evaluation for the judge, the fields of an llm_judge
// evaluation plus the evidence the runner collected.
type Input struct {
	// Prompt is the evaluation question.
	Prompt string
	// Evidence is what the agent did, as text: its reply, a conversation
	// transcript, command output, a list of files.
	Evidence string
	// Expected is the expected outcome; yes, no, a score threshold ("0.8+", "<0.3", the range "0.6-0.9") or an outcome in words.
	Expected string
	// Capabilities are criteria the judge reports on one by one.
	Capabilities []string
	// ModelType selects a model; see Config.Models.
	ModelType string
	// Temperature overrides Config.Temperature; an explicit 0 is honoured.
	Temperature *float64
	// JSONSchema replaces the built-in verdict schema. The answer is still
	// read by the judge's lenient verdict parser, so the schema should have a pass-like field
	// (pass, overall_success, judgment as yes/no, ...) or a score.
	JSONSchema json.RawMessage
	// Samples overrides Config.Samples.
	Samples int
}

// Judge is an LLM-as-judge. It is safe for concurrent use.
type Judge struct {
	cfg Config
}

// New returns a judge for cfg.
func New(cfg Config) (*Judge, error) {
	if cfg.Model == nil {
		return nil, errors.New("judge: Config.Model is required")
	}
	if cfg.Cache != nil && modelName(cfg.Model, cfg.ModelName) == "" {
		return nil, errors.New("judge: a cache needs Config.ModelName because the model has no Name method")
	}
	if cfg.Temperature != nil && (*cfg.Temperature < 0 || *cfg.Temperature > 2) {
		return nil, fmt.Errorf("judge: temperature %v is outside 0..2", *cfg.Temperature)
	}
	return &Judge{cfg: cfg}, nil
}

// modelName returns explicit if set, else m's own name, else "".
func modelName(m llm.Model, explicit string) string {
	if explicit != "" {
		return explicit
	}
	if n, ok := m.(llm.Namer); ok {
		return n.Name()
	}
	return ""
}

// Evaluate asks the judge about in and returns its verdict. Errors wrap
// [ErrUnparseableVerdict] when the model answered but not with a verdict,
// and the model's own errors ([*llm.APIError], context errors) otherwise.
func (j *Judge) Evaluate(ctx context.Context, in Input) (Verdict, error) {
	p, err := j.plan(in)
	if err != nil {
		return Verdict{}, err
	}
	results := make([]sampleResult, p.samples)
	if p.samples == 1 {
		// The common case runs inline: no goroutine, no extra context.
		results[0], err = j.sample(ctx, p, 0)
		if err != nil {
			return Verdict{}, err
		}
	} else if err := j.sampleAll(ctx, p, results); err != nil {
		return Verdict{}, err
	}
	return combine(in, results), nil
}

// plan is one evaluation ready to send: the validated input turned into a
// request, and the model that answers it.
type plan struct {
	model   llm.Model
	name    string // the model's name in cache keys
	req     llm.Request
	exp     expect.Expectation
	samples int
}

// plan validates in and builds the request every sample sends.
func (j *Judge) plan(in Input) (plan, error) {
	exp, err := expect.Parse(in.Expected)
	if err != nil {
		return plan{}, err
	}
	if strings.TrimSpace(in.Prompt) == "" {
		return plan{}, errors.New("judge: the evaluation prompt is empty")
	}
	for i, c := range in.Capabilities {
		if strings.TrimSpace(c) == "" {
			return plan{}, fmt.Errorf("judge: capability %d is empty", i+1)
		}
	}
	temp := 0.0
	if j.cfg.Temperature != nil {
		temp = *j.cfg.Temperature
	}
	if in.Temperature != nil {
		temp = *in.Temperature
	}
	if temp < 0 || temp > 2 {
		return plan{}, fmt.Errorf("judge: temperature %v is outside 0..2", temp)
	}

	p := plan{
		model: j.cfg.Model,
		name:  modelName(j.cfg.Model, j.cfg.ModelName),
		req:   llm.Request{Temperature: &temp, MaxTokens: j.cfg.MaxTokens},
		exp:   exp,
	}
	if in.ModelType != "" {
		if m, ok := j.cfg.Models[in.ModelType]; ok {
			p.model, p.name = m, modelName(m, "")
			if p.name == "" {
				p.name = in.ModelType
			}
		} else {
			p.req.Model, p.name = in.ModelType, in.ModelType
		}
	}
	custom := len(in.JSONSchema) > 0
	if custom {
		if !json.Valid(in.JSONSchema) {
			return plan{}, errors.New("judge: json_schema is not valid JSON")
		}
		p.req.JSONSchema = &llm.JSONSchema{Name: "custom_verdict", Schema: in.JSONSchema}
	} else {
		p.req.JSONSchema = &llm.JSONSchema{Name: verdictSchemaName, Schema: verdictSchema, Strict: true}
	}
	p.req.Messages = buildMessages(in, exp, custom)

	p.samples = in.Samples
	if p.samples <= 0 {
		p.samples = j.cfg.Samples
	}
	p.samples = max(p.samples, 1)
	return p, nil
}
