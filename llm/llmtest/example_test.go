package llmtest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/llm/llmtest"
)

// Script a rate limit, then answer from the request itself, and inspect
// what the client sent. In a test, use llmtest.NewServer(t) instead of
// Start, and the server closes itself.
func ExampleServer_EnqueueFunc() {
	srv := llmtest.Start()
	defer srv.Close()
	srv.Enqueue(llmtest.RateLimited(0))
	srv.EnqueueFunc(func(r llmtest.Request) llmtest.Reply {
		return llmtest.Text(strings.ToUpper(r.LastUserMessage()))
	})

	resp, err := srv.Model().Complete(context.Background(), llm.Request{
		Messages: []llm.Message{{Role: llm.RoleUser, Content: "shout this"}},
	})
	fmt.Println(resp.Content, err)
	for _, r := range srv.Requests() {
		fmt.Println(r.Index, r.Chat.Model, r.Header.Get("Authorization") != "")
	}
	// Output:
	// SHOUT THIS <nil>
	// 0 llmtest-model true
	// 1 llmtest-model true
}

// Script a tool call and check the arguments the agent code receives.
func ExampleCalls() {
	srv := llmtest.Start()
	defer srv.Close()
	srv.Enqueue(llmtest.Calls(llm.ToolCall{Name: "list_issues", Arguments: json.RawMessage(`{"repo":"octo/hello"}`)}))

	resp, _ := srv.Model().Complete(context.Background(), llm.Request{
		Messages: []llm.Message{{Role: llm.RoleUser, Content: "List the issues."}},
		Tools:    []llm.Tool{{Name: "list_issues"}},
	})
	fmt.Println(resp.FinishReason, resp.ToolCalls[0].Name, string(resp.ToolCalls[0].Arguments))
	// Output: tool_calls list_issues {"repo":"octo/hello"}
}

// Script a server error that outlasts the client's retries.
func ExampleError() {
	srv := llmtest.Start()
	defer srv.Close()
	srv.Handle(func(llmtest.Request) llmtest.Reply {
		return llmtest.Error(http.StatusServiceUnavailable, "server_error", "overloaded")
	})
	_, err := srv.Model().Complete(context.Background(), llm.Request{
		Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}},
	})
	fmt.Println(err)
	fmt.Println(len(srv.Requests()), "requests")
	// Output:
	// llm: gave up after 4 attempts: model API: 503 Service Unavailable (server_error): overloaded
	// 4 requests
}
