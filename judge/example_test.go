package judge_test

import (
	"context"
	"fmt"
	"strings"

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

func ExampleParseVerdict() {
	v, err := judge.ParseVerdict("Sure! ```json\n{\"Pass\": \"yes\", \"score\": \"0.8\", \"reasoning\": \"ok\",}\n```")
	fmt.Println(v.Pass, v.Score, v.Reasoning, err)

	v, err = judge.ParseVerdict("No. The agent never opened the file.")
	fmt.Println(v.Pass, v.Score, err)

	_, err = judge.ParseVerdict("The agent did several things.")
	fmt.Println(err != nil)
	// Output:
	// true 0.8 ok <nil>
	// false 0 <nil>
	// true
}

func ExampleParseExpectation() {
	for _, s := range []string{"yes", "0.8+", "<0.3", "0.6-0.9", "The reply names the PR author"} {
		e, err := judge.ParseExpectation(s)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(e)
	}
	// Output:
	// answer yes
	// score >= 0.8
	// score < 0.3
	// score between 0.6 and 0.9
	// "The reply names the PR author"
}

func ExampleDecide() {
	strategies := judge.NewRegistry()
	outcomes := []judge.Outcome{
		{Name: "mentions issues", Passed: true},
		{Name: "calls LIST_GITHUB_ISSUES", Passed: true},
		{Name: "llm_judge", Passed: false},
		{Name: "file_exists result.json", Passed: false},
		{Name: "execution_time", Passed: false},
	}
	for _, name := range []string{"all_pass", "any_pass", "majority_pass"} {
		d, _ := judge.Decide(strategies, name, outcomes, judge.Options{})
		fmt.Printf("%s: %v (%s)\n", name, d.Passed, d.Reason)
	}
	_, err := judge.Decide(strategies, "majorty_pass", outcomes, judge.Options{})
	fmt.Println(err)
	// Output:
	// all_pass: false (3 of 5 evaluations failed ("llm_judge", "file_exists result.json", "execution_time"); all_pass needs every evaluation to pass)
	// any_pass: true (2 of 5 evaluations passed; any_pass needs at least one)
	// majority_pass: false (2 of 5 evaluations passed; majority_pass needs more than half (3), which this falls short of; failed: "llm_judge", "file_exists result.json", "execution_time")
	// unknown judgment strategy "majorty_pass"; did you mean "majority_pass"? (known: all_pass, any_pass, majority_pass, weighted)
}

// meanScore is a host program's own strategy: it passes when the mean score
// reaches the threshold. Decide leaves it only outcomes the shared rules
// left open: at least one, no failed critical one.
var meanScore = &judge.Strategy{Name: "mean_score", Doc: "Passes when the mean score reaches the threshold (default 0.7).", Decide: decideMeanScore}

func decideMeanScore(outcomes []judge.Outcome, opts judge.Options) judge.Decision {
	t := 0.7
	if opts.Threshold != nil {
		t = *opts.Threshold
	}
	sum := 0.0
	for _, o := range outcomes {
		sum += o.Score
	}
	mean := sum / float64(len(outcomes))
	return judge.Decision{Passed: mean >= t, Score: mean, Reason: fmt.Sprintf("mean score %.2f against threshold %.2f", mean, t)}
}

// A host program registers its own strategy exactly as the built-ins are.
func ExampleStrategy() {
	strategies := judge.NewRegistry()
	if err := strategies.Register(meanScore); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(strings.Join(strategies.Names(), ", "))
	d, _ := judge.Decide(strategies, "mean_score", []judge.Outcome{{Score: 0.9}, {Score: 0.6}}, judge.Options{})
	fmt.Println(d.Passed, d.Reason)
	// Output:
	// all_pass, any_pass, majority_pass, mean_score, weighted
	// true mean score 0.75 against threshold 0.70
}
