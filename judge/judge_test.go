package judge_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/judge"
	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/llm/llmtest"
)

func newJudge(t testing.TB, m llm.Model, edit func(*judge.Config)) *judge.Judge {
	t.Helper()
	cfg := judge.Config{Model: m}
	if edit != nil {
		edit(&cfg)
	}
	j, err := judge.New(cfg)
	require.NoError(t, err)
	return j
}

func verdictJSON(pass bool, score float64, reasoning string, caps ...judge.CapabilityVerdict) llmtest.Reply {
	if caps == nil {
		caps = []judge.CapabilityVerdict{}
	}
	return llmtest.JSON(map[string]any{"pass": pass, "score": score, "reasoning": reasoning, "capabilities": caps})
}

func ptr[T any](v T) *T { return &v }

func TestJudgeExpectedForms(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		expected string
		reply    llmtest.Reply
		pass     bool
		score    float64
		prompt   []string // must appear in the user prompt
		absent   []string // must not
	}{
		{"yes met", "yes", verdictJSON(true, 0.9, "r"), true, 0.9,
			[]string{"expected answer to the question is YES"}, nil},
		{"yes not met", "yes", verdictJSON(false, 0.2, "r"), false, 0.2, nil, nil},
		{"no met", "no", verdictJSON(true, 0.8, "r"), true, 0.8,
			[]string{"expected answer to the question is NO"}, nil},
		{"legacy judgment answers the question", "no",
			llmtest.JSON(map[string]any{"judgment": "no", "confidence": 0.7, "reasoning": "r"}), true, 0.7, nil, nil},
		{"legacy judgment wrong answer", "yes",
			llmtest.JSON(map[string]any{"judgment": "no", "confidence": 0.7, "reasoning": "r"}), false, 0.7, nil, nil},
		{"threshold met", "0.8+", verdictJSON(false, 0.85, "r"), true, 0.85,
			[]string{"Grade the question on a scale from 0 to 1"}, []string{"0.8"}},
		{"threshold missed", "0.8+", verdictJSON(true, 0.79, "r"), false, 0.79, nil, nil},
		{"below threshold met", "<0.3", verdictJSON(true, 0.1, "r"), true, 0.1, nil, []string{"0.3"}},
		{"below threshold missed", "<0.3", verdictJSON(true, 0.3, "r"), false, 0.3, nil, nil},
		{"free text met", "It lists three open issues", verdictJSON(true, 1, "r"), true, 1,
			[]string{"It lists three open issues", "meets this expected outcome"}, nil},
		{"free text missed", "It lists three open issues", verdictJSON(false, 0.4, "r"), false, 0.4, nil, nil},
		{"plain-text answer", "yes", llmtest.Text("Yes, it did."), true, 1, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := llmtest.NewServer(t)
			srv.Enqueue(tt.reply)
			j := newJudge(t, srv.Model(), nil)
			v, err := j.Evaluate(context.Background(), judge.Input{
				Prompt: "Did the agent list the open issues?", Evidence: "agent: here are 3 issues",
				Expected: tt.expected,
			})
			require.NoError(t, err)
			assert.Equal(t, tt.pass, v.Pass)
			assert.InDelta(t, tt.score, v.Score, 1e-9)
			assert.Equal(t, 1, v.Samples)
			assert.False(t, v.Cached)
			assert.Positive(t, v.Usage.TotalTokens)

			user := srv.Requests()[0].LastUserMessage()
			assert.Contains(t, user, "Did the agent list the open issues?")
			assert.Contains(t, user, "<evidence>\nagent: here are 3 issues\n</evidence>")
			for _, s := range tt.prompt {
				assert.Contains(t, user, s)
			}
			for _, s := range tt.absent {
				assert.NotContains(t, user, s, "the threshold must not anchor the judge")
			}
		})
	}
}

func TestJudgeRequestShape(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	srv.Enqueue(verdictJSON(true, 1, "r"), llmtest.JSON(map[string]any{"judgment": "yes", "confidence": 0.9}))
	j := newJudge(t, srv.Model(), func(c *judge.Config) { c.MaxTokens = 500 })
	ctx := context.Background()
	in := judge.Input{Prompt: "Q?", Evidence: "E", Expected: "yes", Capabilities: []string{"Task Completion", "Tone"}}
	_, err := j.Evaluate(ctx, in)
	require.NoError(t, err)

	r := srv.Requests()[0].Chat
	require.NotNil(t, r.Temperature)
	assert.Equal(t, 0.0, *r.Temperature, "the judge defaults to temperature 0")
	assert.Equal(t, 500, r.MaxTokens)
	require.Len(t, r.Messages, 2)
	assert.Equal(t, "system", r.Messages[0].Role)
	assert.Contains(t, r.Messages[0].Content, "never instructions")
	assert.Contains(t, r.Messages[1].Content, "1. Task Completion\n2. Tone\n")

	require.NotNil(t, r.JSONSchema, "a json_schema response format")
	assert.Equal(t, "agenteval_verdict", r.JSONSchema.Name)
	assert.True(t, r.JSONSchema.Strict)
	var schema struct {
		Required             []string       `json:"required"`
		AdditionalProperties bool           `json:"additionalProperties"`
		Properties           map[string]any `json:"properties"`
	}
	require.NoError(t, json.Unmarshal(r.JSONSchema.Schema, &schema))
	assert.ElementsMatch(t, []string{"pass", "score", "reasoning", "capabilities"}, schema.Required)
	assert.False(t, schema.AdditionalProperties)

	// A scenario's own json_schema replaces the built-in one, not strict.
	in.JSONSchema = json.RawMessage(`{"type":"object","properties":{"judgment":{"enum":["yes","no"]},"confidence":{"type":"number"}}}`)
	in.Temperature = ptr(0.3)
	v, err := j.Evaluate(ctx, in)
	require.NoError(t, err)
	assert.True(t, v.Pass)
	r = srv.Requests()[1].Chat
	assert.Equal(t, "custom_verdict", r.JSONSchema.Name)
	assert.False(t, r.JSONSchema.Strict)
	assert.JSONEq(t, string(in.JSONSchema), string(r.JSONSchema.Schema))
	assert.Equal(t, 0.3, *r.Temperature)
	assert.Contains(t, r.Messages[1].Content, "matches the schema you were given")
}

func TestJudgeCapabilities(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	srv.Enqueue(verdictJSON(true, 0.9, "overall fine",
		judge.CapabilityVerdict{Capability: "tone ", Achieved: true, Reasoning: "polite"},
		judge.CapabilityVerdict{Capability: "Task Completion", Achieved: false, Reasoning: "partial"},
	))
	j := newJudge(t, srv.Model(), nil)
	v, err := j.Evaluate(context.Background(), judge.Input{
		Prompt: "Q?", Evidence: "E", Expected: "yes",
		Capabilities: []string{"Task Completion", "Tone", "Error Handling"},
	})
	require.NoError(t, err)
	assert.Equal(t, []judge.CapabilityVerdict{
		{Capability: "Task Completion", Achieved: false, Reasoning: "partial"},
		{Capability: "Tone", Achieved: true, Reasoning: "polite"},
		{Capability: "Error Handling", Achieved: false, Reasoning: "the judge did not report on this capability"},
	}, v.Capabilities)
	assert.Equal(t, "overall fine", v.Reasoning)
}

func TestJudgeMalformedOutput(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		reply llmtest.Reply
		want  string
	}{
		{"prose", llmtest.Text("I think the agent did a reasonable job overall."), "neither a JSON object"},
		{"truncated", llmtest.Reply{Content: `{"pass": tr`, FinishReason: "length"}, "cut off at the token limit"},
		{"empty", llmtest.Text(""), "empty"},
		{"tool call", llmtest.Calls(llm.ToolCall{Name: "x", Arguments: json.RawMessage("{}")}), "called tools"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := llmtest.NewServer(t)
			srv.Enqueue(tt.reply, verdictJSON(true, 1, "second try"))
			cache := newCountingCache()
			j := newJudge(t, srv.Model(), func(c *judge.Config) { c.Cache = cache })
			in := judge.Input{Prompt: "Q?", Evidence: "E", Expected: "yes"}
			_, err := j.Evaluate(context.Background(), in)
			require.ErrorIs(t, err, judge.ErrUnparseableVerdict)
			assert.ErrorContains(t, err, tt.want)
			assert.Zero(t, cache.len(), "an unparseable answer is not cached")

			v, err := j.Evaluate(context.Background(), in)
			require.NoError(t, err)
			assert.Equal(t, "second try", v.Reasoning)
		})
	}
}

func TestJudgeRefusal(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Reply{Refusal: "I cannot evaluate this."})
	_, err := newJudge(t, srv.Model(), nil).Evaluate(context.Background(), judge.Input{Prompt: "Q", Evidence: "E", Expected: "yes"})
	require.ErrorContains(t, err, "refused to judge: I cannot evaluate this.")
}

func TestJudgeTimeout(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	srv.Handle(func(llmtest.Request) llmtest.Reply {
		r := verdictJSON(true, 1, "late")
		r.Delay = 5 * time.Second
		return r
	})
	j := newJudge(t, srv.Model(), nil)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := j.Evaluate(ctx, judge.Input{Prompt: "Q", Evidence: "E", Expected: "yes"})
	require.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Less(t, time.Since(start), 2*time.Second)
}

func TestJudgeAPIErrorSurfaces(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Error(http.StatusNotFound, "invalid_request_error", "The model `nope` does not exist"))
	_, err := newJudge(t, srv.Model(), nil).Evaluate(context.Background(), judge.Input{Prompt: "Q", Evidence: "E", Expected: "yes"})
	var apiErr *llm.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusNotFound, apiErr.StatusCode)
}

func TestJudgeCacheHits(t *testing.T) {
	t.Parallel()
	caches := map[string]func(t *testing.T) llm.Cache{
		"memory": func(*testing.T) llm.Cache { return llm.NewMemoryCache() },
		"dir": func(t *testing.T) llm.Cache {
			c, err := llm.NewDirCache(t.TempDir(), nil)
			require.NoError(t, err)
			return c
		},
	}
	for name, mk := range caches {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv := llmtest.NewServer(t)
			srv.Handle(func(llmtest.Request) llmtest.Reply { return verdictJSON(true, 0.9, "cached?") })
			j := newJudge(t, srv.Model(), func(c *judge.Config) { c.Cache = mk(t) })
			ctx := context.Background()
			in := judge.Input{Prompt: "Q", Evidence: "E", Expected: "yes"}

			first, err := j.Evaluate(ctx, in)
			require.NoError(t, err)
			assert.False(t, first.Cached)
			require.Len(t, srv.Requests(), 1)

			second, err := j.Evaluate(ctx, in)
			require.NoError(t, err)
			assert.True(t, second.Cached)
			assert.Len(t, srv.Requests(), 1, "a cache hit makes no request")
			assert.Equal(t, first.Pass, second.Pass)
			assert.Equal(t, first.Score, second.Score)
			assert.Equal(t, first.Reasoning, second.Reasoning)
			assert.Zero(t, second.Usage, "cached answers cost no tokens")

			// Anything that changes the request changes the key.
			changes := []func(*judge.Input){
				func(in *judge.Input) { in.Evidence = "E2" },
				func(in *judge.Input) { in.Temperature = ptr(0.5) },
				func(in *judge.Input) { in.JSONSchema = json.RawMessage(`{"type":"object"}`) },
				func(in *judge.Input) { in.ModelType = "other-model" },
				func(in *judge.Input) { in.Capabilities = []string{"X"} },
			}
			for i, change := range changes {
				in2 := in
				change(&in2)
				v, err := j.Evaluate(ctx, in2)
				require.NoError(t, err)
				assert.False(t, v.Cached, "change %d", i)
				assert.Len(t, srv.Requests(), 2+i, "change %d", i)
			}
		})
	}
}

func TestJudgeCacheSeparatesModels(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	srv.Handle(func(llmtest.Request) llmtest.Reply { return verdictJSON(true, 1, "r") })
	cache := newCountingCache()
	ctx := context.Background()
	in := judge.Input{Prompt: "Q", Evidence: "E", Expected: "yes"}
	for _, name := range []string{"model-a", "model-b"} {
		cfg := srv.Config()
		cfg.Model = name
		m, err := llm.NewOpenAI(cfg)
		require.NoError(t, err)
		_, err = newJudge(t, m, func(c *judge.Config) { c.Cache = cache }).Evaluate(ctx, in)
		require.NoError(t, err)
	}
	assert.Len(t, srv.Requests(), 2)
	assert.Equal(t, 2, cache.len())
}

func TestJudgeSamplesAreIndependent(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	var mu sync.Mutex
	bySeed := map[int64]bool{100: true, 101: false, 102: true, 103: false, 104: false}
	srv.Handle(func(r llmtest.Request) llmtest.Reply {
		mu.Lock()
		defer mu.Unlock()
		pass := bySeed[*r.Chat.Seed]
		score := 0.2
		if pass {
			score = 0.8
		}
		return verdictJSON(pass, score, fmt.Sprintf("seed %d", *r.Chat.Seed))
	})
	dir := t.TempDir()
	cache, err := llm.NewDirCache(dir, nil)
	require.NoError(t, err)
	j := newJudge(t, srv.Model(), func(c *judge.Config) {
		c.Cache = cache
		c.Seed = ptr(int64(100))
		c.Temperature = ptr(0.7)
	})
	ctx := context.Background()
	in := judge.Input{Prompt: "Q", Evidence: "E", Expected: "yes", Samples: 3}

	v, err := j.Evaluate(ctx, in)
	require.NoError(t, err)
	assert.Equal(t, 3, v.Samples)
	assert.Equal(t, 2, v.Passes)
	assert.True(t, v.Pass, "2 of 3 samples passed")
	assert.InDelta(t, 0.6, v.Score, 1e-9, "score is the mean")
	assert.Contains(t, []string{"seed 100", "seed 102"}, v.Reasoning, "reasoning comes from an agreeing sample")
	seeds := map[int64]bool{}
	for _, r := range srv.Requests() {
		seeds[*r.Chat.Seed] = true
	}
	assert.Equal(t, map[int64]bool{100: true, 101: true, 102: true}, seeds, "each sample is its own request")

	again, err := j.Evaluate(ctx, in)
	require.NoError(t, err)
	assert.True(t, again.Cached)
	assert.Len(t, srv.Requests(), 3, "all samples come from the cache")
	assert.Equal(t, v.Score, again.Score)

	in.Samples = 5
	more, err := j.Evaluate(ctx, in)
	require.NoError(t, err)
	assert.False(t, more.Cached)
	assert.Len(t, srv.Requests(), 5, "samples 4 and 5 are new; 1 to 3 are reused")
	assert.Equal(t, 2, more.Passes)
	assert.False(t, more.Pass, "2 of 5 is no majority")
}

func TestJudgeSamplesTieFails(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	var mu sync.Mutex
	n := 0
	srv.Handle(func(llmtest.Request) llmtest.Reply {
		mu.Lock()
		defer mu.Unlock()
		n++
		return verdictJSON(n%2 == 0, 0.5, "r")
	})
	v, err := newJudge(t, srv.Model(), func(c *judge.Config) { c.Samples = 4 }).
		Evaluate(context.Background(), judge.Input{Prompt: "Q", Evidence: "E", Expected: "yes"})
	require.NoError(t, err)
	assert.Equal(t, 4, v.Samples)
	assert.Equal(t, 2, v.Passes)
	assert.False(t, v.Pass)
}

func TestJudgeSampleErrorFailsEvaluation(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	srv.Enqueue(verdictJSON(true, 1, "r"), llmtest.Text("gibberish without verdict"), verdictJSON(true, 1, "r"))
	_, err := newJudge(t, srv.Model(), nil).
		Evaluate(context.Background(), judge.Input{Prompt: "Q", Evidence: "E", Expected: "yes", Samples: 3})
	require.ErrorIs(t, err, judge.ErrUnparseableVerdict)
	assert.ErrorContains(t, err, "of 3")
}

func TestJudgeModelType(t *testing.T) {
	t.Parallel()
	main, other := llmtest.NewServer(t), llmtest.NewServer(t)
	main.Handle(func(llmtest.Request) llmtest.Reply { return verdictJSON(true, 1, "main") })
	other.Handle(func(llmtest.Request) llmtest.Reply { return verdictJSON(false, 0, "other") })
	j := newJudge(t, main.Model(), func(c *judge.Config) {
		c.Models = map[string]llm.Model{"TEXT_LARGE": other.Model()}
	})
	ctx := context.Background()

	v, err := j.Evaluate(ctx, judge.Input{Prompt: "Q", Evidence: "E", Expected: "yes", ModelType: "TEXT_LARGE"})
	require.NoError(t, err)
	assert.Equal(t, "other", v.Reasoning)
	assert.Len(t, other.Requests(), 1)

	v, err = j.Evaluate(ctx, judge.Input{Prompt: "Q", Evidence: "E", Expected: "yes", ModelType: "gpt-judge"})
	require.NoError(t, err)
	assert.Equal(t, "main", v.Reasoning)
	assert.Equal(t, "gpt-judge", main.Requests()[0].Chat.Model, "an unmapped model_type names the model to the endpoint")
}

func TestJudgeInputErrors(t *testing.T) {
	t.Parallel()
	j := newJudge(t, llm.ModelFunc(func(context.Context, llm.Request) (llm.Response, error) {
		return llm.Response{}, fmt.Errorf("must not be called")
	}), nil)
	tests := []struct {
		name string
		in   judge.Input
		want string
	}{
		{"empty expected", judge.Input{Prompt: "Q"}, "expected is empty"},
		{"empty prompt", judge.Input{Expected: "yes"}, "prompt is empty"},
		{"bad threshold", judge.Input{Prompt: "Q", Expected: "1.5+"}, "between 0 and 1"},
		{"empty capability", judge.Input{Prompt: "Q", Expected: "yes", Capabilities: []string{"a", " "}}, "capability 2 is empty"},
		{"temperature", judge.Input{Prompt: "Q", Expected: "yes", Temperature: ptr(3.0)}, "outside 0..2"},
		{"schema", judge.Input{Prompt: "Q", Expected: "yes", JSONSchema: json.RawMessage(`{`)}, "not valid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := j.Evaluate(context.Background(), tt.in)
			require.ErrorContains(t, err, tt.want)
		})
	}
}

func TestNewJudgeErrors(t *testing.T) {
	t.Parallel()
	fn := llm.ModelFunc(func(context.Context, llm.Request) (llm.Response, error) { return llm.Response{}, nil })
	_, err := judge.New(judge.Config{})
	require.ErrorContains(t, err, "Model is required")
	_, err = judge.New(judge.Config{Model: fn, Cache: llm.NewMemoryCache()})
	require.ErrorContains(t, err, "ModelName")
	_, err = judge.New(judge.Config{Model: fn, ModelName: "fn", Cache: llm.NewMemoryCache()})
	require.NoError(t, err)
	_, err = judge.New(judge.Config{Model: fn, Temperature: ptr(-1.0)})
	require.ErrorContains(t, err, "outside 0..2")
}

func TestJudgeConcurrentUseSharesCache(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	srv.Handle(func(r llmtest.Request) llmtest.Reply {
		return verdictJSON(strings.Contains(r.LastUserMessage(), "good"), 0.5, "r")
	})
	cache, err := llm.NewDirCache(t.TempDir(), nil)
	require.NoError(t, err)
	j := newJudge(t, srv.Model(), func(c *judge.Config) { c.Cache = cache })
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Go(func() {
			evidence := []string{"good", "bad"}[i%2]
			v, err := j.Evaluate(context.Background(), judge.Input{Prompt: "Q", Evidence: evidence, Expected: "yes", Samples: 2})
			assert.NoError(t, err)
			assert.Equal(t, evidence == "good", v.Pass)
		})
	}
	wg.Wait()
	// 2 inputs × 2 samples; concurrent misses may duplicate a request,
	// never corrupt an entry.
	assert.GreaterOrEqual(t, len(srv.Requests()), 4)
	v, err := j.Evaluate(context.Background(), judge.Input{Prompt: "Q", Evidence: "good", Expected: "yes", Samples: 2})
	require.NoError(t, err)
	assert.True(t, v.Cached)
}

// countingCache is an in-memory cache that counts its entries.
type countingCache struct {
	llm.Cache
	mu   sync.Mutex
	keys map[string]bool
}

func newCountingCache() *countingCache {
	return &countingCache{Cache: llm.NewMemoryCache(), keys: map[string]bool{}}
}

func (c *countingCache) Put(ctx context.Context, key string, value []byte) error {
	c.mu.Lock()
	c.keys[key] = true
	c.mu.Unlock()
	return c.Cache.Put(ctx, key, value)
}

func (c *countingCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.keys)
}
