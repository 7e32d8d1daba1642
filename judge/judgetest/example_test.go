package judgetest_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/agenteval/agenteval/judge"
	"github.com/agenteval/agenteval/judge/judgetest"
)

// Script a rate limit, then answer from the request itself, and inspect
// what the client sent. In a test, use judgetest.NewServer(t) instead of
// Start, and the server closes itself.
func ExampleServer_EnqueueFunc() {
	srv := judgetest.Start()
	defer srv.Close()
	srv.Enqueue(judgetest.RateLimited(0))
	srv.EnqueueFunc(func(r judgetest.Request) judgetest.Reply {
		return judgetest.Text(strings.ToUpper(r.LastUserMessage()))
	})

	resp, err := srv.Model().Complete(context.Background(), judge.Request{
		Messages: []judge.Message{{Role: judge.RoleUser, Content: "shout this"}},
	})
	fmt.Println(resp.Content, err)
	for _, r := range srv.Requests() {
		fmt.Println(r.Index, r.Chat.Model, r.Header.Get("Authorization") != "")
	}
	// Output:
	// SHOUT THIS <nil>
	// 0 judgetest-model true
	// 1 judgetest-model true
}

// Script a tool call and check the arguments the agent code receives.
func ExampleCalls() {
	srv := judgetest.Start()
	defer srv.Close()
	srv.Enqueue(judgetest.Calls(judgetest.ToolCall{Name: "list_issues", Arguments: `{"repo":"octo/hello"}`}))

	resp, _ := srv.Model().Complete(context.Background(), judge.Request{
		Messages: []judge.Message{{Role: judge.RoleUser, Content: "List the issues."}},
		Tools:    []judge.Tool{{Name: "list_issues"}},
	})
	fmt.Println(resp.FinishReason, resp.ToolCalls[0].Name, string(resp.ToolCalls[0].Arguments))
	// Output: tool_calls list_issues {"repo":"octo/hello"}
}

// Script a server error that outlasts the client's retries.
func ExampleError() {
	srv := judgetest.Start()
	defer srv.Close()
	srv.Handle(func(judgetest.Request) judgetest.Reply {
		return judgetest.Error(http.StatusServiceUnavailable, "server_error", "overloaded")
	})
	_, err := srv.Model().Complete(context.Background(), judge.Request{
		Messages: []judge.Message{{Role: judge.RoleUser, Content: "hi"}},
	})
	fmt.Println(err)
	fmt.Println(len(srv.Requests()), "requests")
	// Output:
	// judge: gave up after 4 attempts: model API: 503 Service Unavailable (server_error): overloaded
	// 4 requests
}
