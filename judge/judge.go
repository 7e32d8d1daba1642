package judge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// cacheVersion is part of every cache key. Bump it when the prompt or the
// meaning of a cached entry changes, so old entries stop matching instead of
// answering a question that is no longer asked.
const cacheVersion = 1

// Config configures a [Judge]. Only Model is required.
type Config struct {
	// Model answers the evaluation prompts.
	Model Model
	// ModelName names Model in cache keys when Model does not implement
	// [Namer]. New refuses a Cache without a name for the model, because
	// verdicts of different models must never be mixed up.
	ModelName string
	// Models serves Input.ModelType: a name found here selects that model
	// (named in cache keys by its Namer name, else by the map key). A name
	// not found is passed to Model as Request.Model, which an OpenAI
	// endpoint serving several models understands.
	Models map[string]Model
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
	Cache Cache
}

// Input is one evaluation for the judge, the fields of an llm_judge
// evaluation plus the evidence the runner collected.
type Input struct {
	// Prompt is the evaluation question.
	Prompt string
	// Evidence is what the agent did, as text: its reply, a conversation
	// transcript, command output, a list of files.
	Evidence string
	// Expected is the expected outcome; see [ParseExpectation].
	Expected string
	// Capabilities are criteria the judge reports on one by one.
	Capabilities []string
	// ModelType selects a model; see Config.Models.
	ModelType string
	// Temperature overrides Config.Temperature; an explicit 0 is honoured.
	Temperature *float64
	// JSONSchema replaces the built-in verdict schema. The answer is still
	// read by [ParseVerdict], so the schema should have a pass-like field
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

func modelName(m Model, fallback string) string {
	if fallback != "" {
		return fallback
	}
	if n, ok := m.(Namer); ok {
		return n.Name()
	}
	return ""
}

// sampleResult is one model answer, read but not yet combined.
type sampleResult struct {
	raw    rawVerdict
	pass   bool
	score  float64
	usage  Usage
	cached bool
	model  string
}

// cacheEntry is what the cache holds for one sample: the model's raw
// answer, so that a better parser applies to old entries too.
type cacheEntry struct {
	Model   string `json:"model"`
	Content string `json:"content"`
	Usage   Usage  `json:"usage"`
}

// Evaluate asks the judge about in and returns its verdict. Errors wrap
// [ErrUnparseableVerdict] when the model answered but not with a verdict,
// and the model's own errors ([*APIError], context errors) otherwise.
func (j *Judge) Evaluate(ctx context.Context, in Input) (Verdict, error) {
	exp, err := ParseExpectation(in.Expected)
	if err != nil {
		return Verdict{}, err
	}
	if strings.TrimSpace(in.Prompt) == "" {
		return Verdict{}, errors.New("judge: the evaluation prompt is empty")
	}
	for i, c := range in.Capabilities {
		if strings.TrimSpace(c) == "" {
			return Verdict{}, fmt.Errorf("judge: capability %d is empty", i+1)
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
		return Verdict{}, fmt.Errorf("judge: temperature %v is outside 0..2", temp)
	}

	model, name := j.cfg.Model, modelName(j.cfg.Model, j.cfg.ModelName)
	req := Request{Temperature: &temp, MaxTokens: j.cfg.MaxTokens}
	if in.ModelType != "" {
		if m, ok := j.cfg.Models[in.ModelType]; ok {
			model, name = m, modelName(m, in.ModelType)
		} else {
			req.Model, name = in.ModelType, in.ModelType
		}
	}
	custom := len(in.JSONSchema) > 0
	if custom {
		if !json.Valid(in.JSONSchema) {
			return Verdict{}, errors.New("judge: json_schema is not valid JSON")
		}
		req.JSONSchema = &JSONSchema{Name: "custom_verdict", Schema: in.JSONSchema}
	} else {
		req.JSONSchema = &JSONSchema{Name: verdictSchemaName, Schema: verdictSchema, Strict: true}
	}
	req.Messages = buildMessages(in, exp, custom)

	k := in.Samples
	if k <= 0 {
		k = j.cfg.Samples
	}
	k = max(k, 1)
	results := make([]sampleResult, k)
	if k == 1 {
		results[0], err = j.sample(ctx, model, name, req, 0, exp)
		if err != nil {
			return Verdict{}, err
		}
	} else if err := j.sampleAll(ctx, model, name, req, exp, results); err != nil {
		return Verdict{}, err
	}
	return combine(in, results), nil
}

// sampleAll runs the samples concurrently: they are independent requests,
// and a judge with k samples should not take k times as long.
func (j *Judge) sampleAll(ctx context.Context, model Model, name string, req Request, exp Expectation, out []sampleResult) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		wg       sync.WaitGroup
		once     sync.Once
		firstErr error
	)
	for i := range out {
		wg.Go(func() {
			r, err := j.sample(ctx, model, name, req, i, exp)
			if err != nil {
				once.Do(func() {
					firstErr = fmt.Errorf("judge: sample %d of %d: %w", i+1, len(out), err)
					cancel()
				})
				return
			}
			out[i] = r
		})
	}
	wg.Wait()
	return firstErr
}

func (j *Judge) sample(ctx context.Context, model Model, name string, req Request, index int, exp Expectation) (sampleResult, error) {
	if j.cfg.Seed != nil {
		s := *j.cfg.Seed + int64(index)
		req.Seed = &s
	}
	var key string
	if j.cfg.Cache != nil {
		key = cacheKey(name, req, index)
		if b, ok, err := j.cfg.Cache.Get(ctx, key); err == nil && ok {
			var e cacheEntry
			if json.Unmarshal(b, &e) == nil {
				if raw, err := parseRaw(e.Content); err == nil {
					pass, score := exp.samplePass(raw)
					return sampleResult{raw: raw, pass: pass, score: score, cached: true, model: e.Model}, nil
				}
			}
			// A corrupt or unreadable entry is a miss; the fresh answer
			// below overwrites it.
		}
	}
	resp, err := model.Complete(ctx, req)
	if err != nil {
		return sampleResult{}, err
	}
	content := resp.Content
	if strings.TrimSpace(content) == "" {
		switch {
		case resp.Refusal != "":
			return sampleResult{}, fmt.Errorf("judge: the model refused to judge: %s", resp.Refusal)
		case len(resp.ToolCalls) > 0:
			return sampleResult{}, fmt.Errorf("%w: the model called tools instead of answering", ErrUnparseableVerdict)
		}
	}
	raw, err := parseRaw(content)
	if err != nil {
		if resp.FinishReason == "length" {
			return sampleResult{}, fmt.Errorf("judge: the answer was cut off at the token limit: %w", err)
		}
		return sampleResult{}, fmt.Errorf("judge: %w", err)
	}
	if j.cfg.Cache != nil {
		if b, err := json.Marshal(cacheEntry{Model: resp.Model, Content: content, Usage: resp.Usage}); err == nil {
			// A failed write costs a model call next time, nothing more,
			// so it does not fail an evaluation that has its answer.
			_ = j.cfg.Cache.Put(ctx, key, b)
		}
	}
	pass, score := exp.samplePass(raw)
	return sampleResult{raw: raw, pass: pass, score: score, usage: resp.Usage, model: resp.Model}, nil
}

// combine merges samples by majority: Pass needs more than half of the
// samples to pass (a tie fails, as the cautious reading), Score is the mean.
func combine(in Input, results []sampleResult) Verdict {
	v := Verdict{Samples: len(results), Cached: true}
	for _, r := range results {
		if r.pass {
			v.Passes++
		}
		v.Score += r.score
		v.Usage = v.Usage.Add(r.usage)
		v.Cached = v.Cached && r.cached
		if v.Model == "" {
			v.Model = r.model
		}
	}
	v.Score /= float64(len(results))
	v.Pass = v.Passes*2 > len(results)
	agree := results[0]
	for _, r := range results {
		if r.pass == v.Pass {
			agree = r
			break
		}
	}
	v.Reasoning = agree.raw.reasoning
	v.Capabilities = combineCapabilities(in.Capabilities, results, agree)
	return v
}

// combineCapabilities reports each requested capability in request order,
// achieved when most samples say so. A model's entry is matched by name
// (ignoring case and punctuation), else by position when it returned exactly
// the requested number of entries.
func combineCapabilities(requested []string, results []sampleResult, agree sampleResult) []CapabilityVerdict {
	if len(requested) == 0 {
		return slices.Clone(agree.raw.caps)
	}
	out := make([]CapabilityVerdict, len(requested))
	found := make([]CapabilityVerdict, 0, len(results))
	for i, name := range requested {
		found = found[:0]
		achieved := 0
		for _, r := range results {
			if c, ok := findCapability(r.raw.caps, name, i, len(requested)); ok {
				found = append(found, c)
				if c.Achieved {
					achieved++
				}
			}
		}
		out[i] = CapabilityVerdict{Capability: name, Achieved: achieved*2 > len(results)}
		if len(found) == 0 {
			out[i].Reasoning = "the judge did not report on this capability"
			continue
		}
		// Explain the outcome with the words of a sample that agrees.
		for _, c := range found {
			if c.Achieved == out[i].Achieved {
				out[i].Reasoning = c.Reasoning
				break
			}
		}
	}
	return out
}

func findCapability(caps []CapabilityVerdict, name string, index, total int) (CapabilityVerdict, bool) {
	want := normKey(name)
	for _, c := range caps {
		if normKey(c.Capability) == want {
			return c, true
		}
	}
	if len(caps) == total {
		return caps[index], true
	}
	return CapabilityVerdict{}, false
}
