package llm

import (
	"net/http"
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestRetryAfter(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		name   string
		header map[string]string
		want   time.Duration
		ok     bool
	}{
		{"absent", nil, 0, false},
		{"seconds", map[string]string{"Retry-After": "3"}, 3 * time.Second, true},
		{"fractional seconds", map[string]string{"Retry-After": "0.25"}, 250 * time.Millisecond, true},
		{"http date", map[string]string{"Retry-After": now.Add(7 * time.Second).Format(http.TimeFormat)}, 7 * time.Second, true},
		{"date in the past", map[string]string{"Retry-After": now.Add(-time.Minute).Format(http.TimeFormat)}, 0, true},
		{"milliseconds win", map[string]string{"Retry-After": "3", "Retry-After-Ms": "40"}, 40 * time.Millisecond, true},
		{"garbage", map[string]string{"Retry-After": "soon"}, 0, false},
		{"negative", map[string]string{"Retry-After": "-1"}, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := http.Header{}
			for k, v := range tt.header {
				h.Set(k, v)
			}
			got, ok := retryAfter(h, now)
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestBackoffGrowsWithinBounds(t *testing.T) {
	t.Parallel()
	base, maxD := 100*time.Millisecond, time.Second
	for attempt := 1; attempt <= 10; attempt++ {
		full := base << (attempt - 1)
		if full > maxD || full <= 0 {
			full = maxD
		}
		for range 50 {
			d := backoff(attempt, base, maxD)
			assert.GreaterOrEqual(t, d, full/2, "attempt %d", attempt)
			assert.LessOrEqual(t, d, full, "attempt %d", attempt)
		}
	}
}

// TestCacheKeyCoversRequest guards CacheKey: when a field is added to
// Request, Message, ToolCall, JSONSchema or Tool, this fails until the
// field is hashed and counted here.
func TestCacheKeyCoversRequest(t *testing.T) {
	t.Parallel()
	counts := map[string]int{"Request": 7, "Message": 5, "ToolCall": 3, "JSONSchema": 4, "Tool": 3}
	types := map[string]reflect.Type{
		"Request": reflect.TypeFor[Request](), "Message": reflect.TypeFor[Message](),
		"ToolCall": reflect.TypeFor[ToolCall](), "JSONSchema": reflect.TypeFor[JSONSchema](), "Tool": reflect.TypeFor[Tool](),
	}
	for name, typ := range types {
		assert.Equal(t, counts[name], typ.NumField(), "%s changed: update CacheKey and this count", name)
	}

	temp, seed := 0.5, int64(3)
	base := Request{
		Messages: []Message{{Role: "user", Content: "c", Name: "n", ToolCallID: "id", ToolCalls: []ToolCall{{ID: "1", Name: "f", Arguments: []byte(`{}`)}}}},
		Model:    "m", Temperature: &temp, MaxTokens: 5, Seed: &seed,
		JSONSchema: &JSONSchema{Name: "s", Description: "d", Schema: []byte(`{}`), Strict: true},
		Tools:      []Tool{{Name: "t", Description: "d", Parameters: []byte(`{}`)}},
	}
	ref := CacheKey("model", base, 0)
	assert.Equal(t, ref, CacheKey("model", base, 0), "keys are deterministic")
	zero, otherSeed := 0.0, int64(4)
	changes := map[string]func(r *Request){
		"role": func(r *Request) {
			r.Messages = []Message{{Role: "system", Content: "c", Name: "n", ToolCallID: "id", ToolCalls: r.Messages[0].ToolCalls}}
		},
		"content": func(r *Request) {
			r.Messages = []Message{{Role: "user", Content: "c2", Name: "n", ToolCallID: "id", ToolCalls: r.Messages[0].ToolCalls}}
		},
		"name": func(r *Request) {
			r.Messages = []Message{{Role: "user", Content: "c", Name: "", ToolCallID: "id", ToolCalls: r.Messages[0].ToolCalls}}
		},
		"tool calls":  func(r *Request) { r.Messages = []Message{{Role: "user", Content: "c", Name: "n", ToolCallID: "id"}} },
		"model":       func(r *Request) { r.Model = "" },
		"temperature": func(r *Request) { r.Temperature = &zero },
		"no temp":     func(r *Request) { r.Temperature = nil },
		"max tokens":  func(r *Request) { r.MaxTokens = 6 },
		"seed":        func(r *Request) { r.Seed = &otherSeed },
		"schema": func(r *Request) {
			r.JSONSchema = &JSONSchema{Name: "s", Description: "d", Schema: []byte(`{ }`), Strict: true}
		},
		"strict": func(r *Request) { r.JSONSchema = &JSONSchema{Name: "s", Description: "d", Schema: []byte(`{}`)} },
		"tools":  func(r *Request) { r.Tools = nil },
	}
	for name, change := range changes {
		r := base
		change(&r)
		assert.NotEqual(t, ref, CacheKey("model", r, 0), name)
	}
	assert.NotEqual(t, ref, CacheKey("model2", base, 0), "model name")
	assert.NotEqual(t, ref, CacheKey("model", base, 1), "sample index")
}
