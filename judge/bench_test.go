package judge_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/judge"
	"github.com/agenteval/agenteval/llm"
)

// BenchmarkJudgeWarmCache measures a judge call whose answer is cached: key
// hashing, the cache read and re-parsing the stored answer. No model runs.
func BenchmarkJudgeWarmCache(b *testing.B) {
	answer := `{"pass": true, "score": 0.9, "reasoning": "The agent listed all three issues with links.",
		"capabilities": [{"capability": "Task Completion", "achieved": true, "reasoning": "done"},
		{"capability": "Response Quality", "achieved": true, "reasoning": "clear"}]}`
	model := llm.ModelFunc(func(context.Context, llm.Request) (llm.Response, error) {
		return llm.Response{Content: answer}, nil
	})
	dir, err := llm.NewDirCache(b.TempDir(), nil)
	require.NoError(b, err)
	caches := []struct {
		name  string
		cache llm.Cache
	}{{"memory", llm.NewMemoryCache()}, {"dir", dir}}
	in := judge.Input{
		Prompt:       "Did the agent list the open issues?",
		Evidence:     "Agent: Here are the open issues:\n" + fmt.Sprintf("%0500d", 0),
		Expected:     "yes",
		Capabilities: []string{"Task Completion", "Response Quality"},
	}
	for _, c := range caches {
		b.Run(c.name, func(b *testing.B) {
			j, err := judge.New(judge.Config{Model: model, ModelName: "bench", Cache: c.cache})
			require.NoError(b, err)
			ctx := context.Background()
			_, err = j.Evaluate(ctx, in)
			require.NoError(b, err)
			b.ReportAllocs()
			for b.Loop() {
				v, err := j.Evaluate(ctx, in)
				if err != nil || !v.Cached {
					b.Fatalf("not a cache hit: %v", err)
				}
			}
		})
	}
}

func BenchmarkParseVerdict(b *testing.B) {
	inputs := []struct{ name, text string }{
		{"json", `{"pass": true, "score": 0.9, "reasoning": "good", "capabilities": [{"capability": "A", "achieved": true, "reasoning": "x"}]}`},
		{"fenced_prose_trailing_comma", "Here is my verdict:\n```json\n{\"Pass\": \"yes\", \"Score\": \"0.8\", \"reasoning\": \"fine\",}\n```\nLet me know."},
		{"plain_yes", "Yes. The agent did what was asked."},
	}
	for _, in := range inputs {
		b.Run(in.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := judge.ParseVerdict(in.text); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkStrategies(b *testing.B) {
	outcomes := make([]judge.Outcome, 10)
	for i := range outcomes {
		outcomes[i] = judge.Outcome{Name: fmt.Sprintf("eval-%d", i), Passed: i%3 != 0, Score: float64(i) / 10, Weight: ptr(float64(i%4 + 1))}
	}
	reg := judge.NewRegistry()
	for _, name := range reg.Names() {
		s, err := reg.Get(name)
		require.NoError(b, err)
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = s.Decide(outcomes, judge.Options{})
			}
		})
	}
}
