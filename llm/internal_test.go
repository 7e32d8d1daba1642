package llm

import (
	"context"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/redact"
)

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

func TestMemoryCacheCopiesValues(t *testing.T) {
	t.Parallel()
	var c memoryCache // the zero value is usable
	v := []byte("abc")
	require.NoError(t, c.Put(context.Background(), "k", v))
	v[0] = 'X'
	got, ok, err := c.Get(context.Background(), "k")
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, "abc", string(got))
	assert.Equal(t, 1, c.len())
}

// TestDirCacheMasksSecrets: a model reply that echoes a key is stored with
// the key masked (judge cache and --record cassettes alike), as valid JSON.
func TestDirCacheMasksSecrets(t *testing.T) {
	t.Parallel()
	c, err := NewDirCache(t.TempDir(), redact.New("sk-cache-secret-123"))
	require.NoError(t, err)
	ctx := context.Background()
	require.NoError(t, c.Put(ctx, cacheKey1, []byte(`{"content":"your key is sk-cache-secret-123"}`)))
	got, ok, err := c.Get(ctx, cacheKey1)
	require.NoError(t, err)
	require.True(t, ok)
	assert.JSONEq(t, `{"content":"your key is [REDACTED]"}`, string(got))
}

const cacheKey1 = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
