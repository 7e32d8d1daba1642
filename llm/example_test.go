package llm_test

import (
	"context"
	"fmt"

	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/llm/llmtest"
)

func ExampleNewOpenAI() {
	srv := llmtest.Start()
	defer srv.Close()
	srv.Enqueue(llmtest.RateLimited(0), llmtest.Text("Hello!"))

	cfg := srv.Config() // in production: llm.OpenAIConfig{Model: "gpt-4o-mini"}
	m, err := llm.NewOpenAI(cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	resp, err := m.Complete(context.Background(), llm.Request{
		Messages: []llm.Message{{Role: llm.RoleUser, Content: "Say hello."}},
	})
	fmt.Println(resp.Content, err, len(srv.Requests()))
	// Output: Hello! <nil> 2
}
