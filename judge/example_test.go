package judge_test

import (
	"context"
	"fmt"

	"github.com/agenteval/agenteval/judge"
	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/llm/llmtest"
)

// An LLM judge against a scripted endpoint. In production the model would
// be llm.NewOpenAI(llm.OpenAIConfig{Model: "gpt-4o-mini"}).
func ExampleJudge_Evaluate() {
	srv := llmtest.Start()
	defer srv.Close()
	srv.Enqueue(llmtest.Text(`{"pass": true, "score": 0.9, "reasoning": "All three issues are listed.",
		"capabilities": [{"capability": "Task Completion", "achieved": true, "reasoning": "listed"}]}`))

	j, err := judge.New(judge.Config{Model: srv.Model(), Cache: llm.NewMemoryCache()})
	if err != nil {
		fmt.Println(err)
		return
	}
	in := judge.Input{
		Prompt:       "Did the agent list the open issues of elizaOS/eliza?",
		Evidence:     "Agent: Here are the 3 open issues: #1, #2, #3.",
		Expected:     "yes",
		Capabilities: []string{"Task Completion"},
	}
	v, err := j.Evaluate(context.Background(), in)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("pass=%v score=%.1f cached=%v\n", v.Pass, v.Score, v.Cached)
	fmt.Println(v.Reasoning)
	fmt.Printf("%s: %v\n", v.Capabilities[0].Capability, v.Capabilities[0].Achieved)

	// The same question again is answered from the cache.
	v, _ = j.Evaluate(context.Background(), in)
	fmt.Printf("cached=%v requests=%d\n", v.Cached, len(srv.Requests()))
	// Output:
	// pass=true score=0.9 cached=false
	// All three issues are listed.
	// Task Completion: true
	// cached=true requests=1
}

// A score threshold decides from the judge's grade, whatever it said about
// pass.
func ExampleJudge_Evaluate_threshold() {
	srv := llmtest.Start()
	defer srv.Close()
	srv.Enqueue(llmtest.Text(`{"pass": false, "score": 0.85, "reasoning": "Mostly right."}`))

	j, _ := judge.New(judge.Config{Model: srv.Model()})
	v, err := j.Evaluate(context.Background(), judge.Input{
		Prompt: "How complete is the summary?", Evidence: "…", Expected: "0.8+",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("pass=%v score=%.2f\n", v.Pass, v.Score)
	// Output: pass=true score=0.85
}
