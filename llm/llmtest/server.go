package llmtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/agenteval/agenteval/internal/openaiwire"
	"github.com/agenteval/agenteval/llm"
)

// The model name and key [Server.Config] sets (a test reads them there).
const (
	defaultModel = "llmtest-model"
	apiKey       = "llmtest-key"
)

// ReplyFunc computes a reply from the request it answers.
type ReplyFunc func(Request) Reply

// Server is a scripted OpenAI-compatible endpoint. Its methods are safe for
// concurrent use, including while requests are being served.
type Server struct {
	// URL is the API root, for example "http://127.0.0.1:41234/v1"; use it
	// as llm.OpenAIConfig.BaseURL.
	URL string

	srv *httptest.Server

	mu       sync.Mutex
	queue    []ReplyFunc
	fallback ReplyFunc
	requests []Request
	limit    *limitState // nil: no emulated limit
}

// NewServer starts a server that is closed when the test ends. Requests
// that find no scripted reply get a 400 "llmtest_unscripted" error, which
// a client does not retry, so a missing script fails fast and visibly.
func NewServer(t testing.TB) *Server {
	t.Helper()
	s := Start()
	t.Cleanup(s.Close)
	return s
}

// Start starts a server outside a test (in an Example, a TestMain or a
// demo program); the caller must Close it.
func Start() *Server {
	s := &Server{}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", s.serveChat)
	mux.HandleFunc("POST /v1/responses", s.serveResponses)
	mux.HandleFunc("POST /v1/messages", s.serveMessages)
	mux.HandleFunc("POST /v1/messages/count_tokens", serveCountTokens)
	mux.HandleFunc("POST /v1beta/models/{call}", s.serveGemini)
	mux.HandleFunc("POST /v1/models/{call}", s.serveGemini)
	mux.HandleFunc("POST /v1/embeddings", serveEmbeddings)
	mux.HandleFunc("GET /v1/models", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, map[string]any{"object": "list",
			"data": []map[string]any{{"id": defaultModel, "object": "model", "created": 0, "owned_by": "llmtest"}}})
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "invalid_request_error",
			fmt.Sprintf("llmtest serves POST /v1/chat/completions, /v1/responses, /v1/messages, /v1beta/models/MODEL:generateContent (and :streamGenerateContent) and /v1/embeddings and GET /v1/models, not %s %s", r.Method, r.URL.Path))
	})
	s.srv = httptest.NewServer(mux)
	s.URL = s.srv.URL + "/v1"
	return s
}

// Close shuts the server down, waiting for requests in flight. NewServer
// arranges it at the end of the test; calling it again is harmless.
func (s *Server) Close() { s.srv.Close() }

// Enqueue appends replies that the next requests receive, one each, in
// order.
func (s *Server) Enqueue(replies ...Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range replies {
		s.queue = append(s.queue, func(Request) Reply { return r })
	}
}

// EnqueueFunc appends reply functions that answer the next requests, one
// each, in order.
func (s *Server) EnqueueFunc(fns ...ReplyFunc) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queue = append(s.queue, fns...)
}

// Handle sets the function that answers every request once the queue is
// empty; nil restores the default "unscripted" error. fn may be called
// concurrently.
func (s *Server) Handle(fn ReplyFunc) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fallback = fn
}

// Pending returns how many queued replies are still unused.
func (s *Server) Pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.queue)
}

// Requests returns a copy of the requests received so far, in arrival
// order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Request, len(s.requests))
	copy(out, s.requests)
	return out
}

// Config returns an OpenAIConfig that points at the server, with small
// timeouts and backoffs suited to tests, and at most 3 retries so that a
// scripted failure fails fast (set MaxRetries to 0 for llm's default:
// retries bounded by RetryDeadline only). Adjust it and pass it to
// llm.NewOpenAI when a test needs other settings.
func (s *Server) Config() llm.OpenAIConfig {
	return llm.OpenAIConfig{
		BaseURL:       s.URL,
		APIKey:        apiKey,
		Model:         defaultModel,
		Timeout:       10 * time.Second,
		Backoff:       time.Millisecond,
		MaxBackoff:    50 * time.Millisecond,
		MaxRetries:    3,
		RetryDeadline: 30 * time.Second,
		HTTPClient:    s.srv.Client(),
	}
}

// Model returns an llm.Model that talks to the server using [Server.Config].
func (s *Server) Model() llm.Model {
	m, err := llm.NewOpenAI(s.Config())
	if err != nil {
		// Config always names a model and an http URL, so this cannot
		// happen; a panic makes a broken invariant loud.
		panic(fmt.Sprintf("llmtest: %v", err))
	}
	return m
}

func (s *Server) serveChat(w http.ResponseWriter, r *http.Request) {
	s.serve(w, r, chatProtocol)
}

// chatProtocol is OpenAI's chat completions.
var chatProtocol = protocol{
	decode: func(_ *http.Request, body []byte) (llm.Request, error) {
		var wire openaiwire.Request
		if err := json.NewDecoder(bytes.NewReader(body)).Decode(&wire); err != nil {
			return llm.Request{}, err
		}
		return fromWire(wire), nil
	},
	write: func(w http.ResponseWriter, req Request, reply Reply, stream streamRequest) {
		if stream.Stream {
			writeStream(w, completion(req, reply), stream.StreamOptions.IncludeUsage)
			return
		}
		writeJSON(w, http.StatusOK, completion(req, reply))
	},
	fail:   openAIError,
	openai: true,
}

// protocol is one provider's wire format: how a request is read into
// llm's terms, and how a scripted reply and a scripted error are written.
type protocol struct {
	decode func(r *http.Request, body []byte) (llm.Request, error)
	// streams reports whether the request asks for a stream; nil reads
	// "stream": true (and stream_options) from the body.
	streams func(r *http.Request, body []byte) streamRequest
	write   func(w http.ResponseWriter, req Request, reply Reply, stream streamRequest)
	fail    func(w http.ResponseWriter, status int, errType, msg string)
	// openai marks OpenAI's protocols, whose rate-limit error has a code.
	openai bool
}

func openAIError(w http.ResponseWriter, status int, errType, msg string) {
	writeError(w, status, errType, msg)
}

// serveResponses answers the OpenAI Responses API (POST /v1/responses,
// streamed as events when asked) from the same script as chat
// completions: the request is recorded with its instructions and input as
// Chat's messages, and the reply's Content comes back as the response's
// output text, its ToolCalls as function_call items.
func (s *Server) serveResponses(w http.ResponseWriter, r *http.Request) {
	s.serve(w, r, responsesProtocol)
}

// responsesProtocol is OpenAI's Responses API.
var responsesProtocol = protocol{
	decode: func(_ *http.Request, body []byte) (llm.Request, error) { return decodeResponses(body) },
	write: func(w http.ResponseWriter, req Request, reply Reply, stream streamRequest) {
		if stream.Stream {
			writeResponseStream(w, response(req, reply))
			return
		}
		writeJSON(w, http.StatusOK, response(req, reply))
	},
	fail:   openAIError,
	openai: true,
}

// serve records one request, decoded by p, and answers it with the next
// scripted reply in p's format.
func (s *Server) serve(w http.ResponseWriter, r *http.Request, p protocol) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		p.fail(w, http.StatusBadRequest, "invalid_request_error", "read body: "+err.Error())
		return
	}
	req := Request{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body}
	req.Chat, req.DecodeError = p.decode(r, body)
	var stream streamRequest
	if p.streams != nil {
		stream = p.streams(r, body)
	} else {
		_ = json.Unmarshal(body, &stream) // a body that is not JSON is answered without streaming
	}

	free := func() {}
	s.mu.Lock()
	req.Index = len(s.requests)
	s.requests = append(s.requests, req)
	if lim := s.limit; lim != nil {
		ok, after := lim.admit(w.Header(), time.Now())
		if !ok {
			s.mu.Unlock()
			w.Header().Set("Retry-After", retryAfterHeader(after))
			msg := fmt.Sprintf("llmtest: rate limit reached for request %d", req.Index)
			if p.openai {
				writeErrorCode(w, http.StatusTooManyRequests, "requests", "rate_limit_exceeded", msg)
			} else {
				p.fail(w, http.StatusTooManyRequests, "rate_limit_error", msg)
			}
			return
		}
		// The slot is free once the answer is ready, before it is written:
		// a client that sends its next request the moment it reads this
		// one must find it free.
		free = sync.OnceFunc(func() {
			s.mu.Lock()
			lim.inflight--
			s.mu.Unlock()
		})
		defer free()
	}
	var fn ReplyFunc
	if len(s.queue) > 0 {
		fn = s.queue[0]
		s.queue = s.queue[1:]
	} else {
		fn = s.fallback
	}
	s.mu.Unlock()

	if fn == nil {
		p.fail(w, http.StatusBadRequest, "llmtest_unscripted",
			fmt.Sprintf("llmtest: no reply scripted for request %d", req.Index))
		return
	}
	reply := fn(req)
	if reply.Delay > 0 {
		t := time.NewTimer(reply.Delay)
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
			return
		}
	}
	free()
	writeReply(w, req, reply, p, stream)
}

func writeReply(w http.ResponseWriter, req Request, reply Reply, p protocol, stream streamRequest) {
	for k, vs := range reply.Header {
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
	if reply.RetryAfter != "" {
		w.Header().Set("Retry-After", reply.RetryAfter)
	}
	if reply.RetryAfterMs > 0 {
		w.Header().Set("Retry-After-Ms", strconv.Itoa(reply.RetryAfterMs))
	}
	status := reply.Status
	if status == 0 {
		status = http.StatusOK
	}
	if reply.Body != "" {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, reply.Body)
		return
	}
	if status != http.StatusOK {
		msg := reply.ErrorMessage
		if msg == "" {
			msg = http.StatusText(status)
		}
		p.fail(w, status, reply.ErrorType, msg)
		return
	}
	p.write(w, req, reply, stream)
}

func completion(req Request, reply Reply) map[string]any {
	msg := map[string]any{"role": "assistant", "content": reply.Content}
	finish := reply.FinishReason
	if len(reply.ToolCalls) > 0 {
		calls := make([]map[string]any, len(reply.ToolCalls))
		for i, c := range reply.ToolCalls {
			id := c.ID
			if id == "" {
				id = fmt.Sprintf("call_%d_%d", req.Index, i)
			}
			calls[i] = map[string]any{
				"id": id, "type": "function",
				"function": map[string]any{"name": c.Name, "arguments": openaiwire.ArgumentText(c.Arguments)},
			}
		}
		msg["tool_calls"] = calls
		if reply.Content == "" {
			msg["content"] = nil
		}
		if finish == "" {
			finish = "tool_calls"
		}
	}
	if reply.Refusal != "" {
		msg["refusal"] = reply.Refusal
	}
	if reply.Reasoning != "" {
		msg["reasoning_content"] = reply.Reasoning
	}
	if finish == "" {
		finish = "stop"
	}
	model := reply.Model
	if model == "" {
		model = req.Chat.Model
	}
	usage := replyUsage(req, reply)
	u := map[string]any{
		"prompt_tokens": usage.PromptTokens, "completion_tokens": usage.CompletionTokens,
		"total_tokens": usage.TotalTokens,
	}
	if usage.CacheReadTokens != 0 {
		u["prompt_tokens_details"] = map[string]int{"cached_tokens": usage.CacheReadTokens}
	}
	if usage.ReasoningTokens != 0 {
		u["completion_tokens_details"] = map[string]int{"reasoning_tokens": usage.ReasoningTokens}
	}
	return map[string]any{
		"id":      fmt.Sprintf("chatcmpl-llmtest-%d", req.Index),
		"object":  "chat.completion",
		"created": 0,
		"model":   model,
		"choices": []map[string]any{{"index": 0, "message": msg, "finish_reason": finish}},
		"usage":   u,
	}
}

func writeError(w http.ResponseWriter, status int, errType, msg string) {
	writeJSON(w, status, map[string]any{"error": map[string]any{"message": msg, "type": errType, "code": nil}})
}

func writeErrorCode(w http.ResponseWriter, status int, errType, code, msg string) {
	writeJSON(w, status, map[string]any{"error": map[string]any{"message": msg, "type": errType, "code": code}})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	// The client may have gone away; there is nobody to report that to.
	_ = json.NewEncoder(w).Encode(v)
}

// replyUsage is the reply's usage, or a rough, deterministic count (about
// four bytes per token) so that usage accounting has something non-zero
// to add up.
func replyUsage(req Request, reply Reply) *llm.Usage {
	if reply.Usage != nil {
		return reply.Usage
	}
	p := len(req.Body)/4 + 1
	c := len(reply.Content)/4 + 1
	return &llm.Usage{PromptTokens: p, CompletionTokens: c, TotalTokens: p + c}
}
