package llmtest

import (
	"net/http/httptest"
	"testing"
)

// FuzzDecodeMessages: no body makes the Messages API reader panic.
func FuzzDecodeMessages(f *testing.F) {
	f.Add([]byte(`{"model":"m","system":"s","messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":[{"type":"text","text":"x"}],"is_error":true}]}],"tools":[{"name":"n"}]}`))
	f.Add([]byte(`{"messages":[{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"n","input":{}}]}]}`))
	f.Add([]byte(`{"messages":[{"content":7}]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		_, _ = decodeMessages(body)
	})
}

// FuzzDecodeGemini: no body makes the generateContent reader panic.
func FuzzDecodeGemini(f *testing.F) {
	f.Add([]byte(`{"contents":[{"role":"model","parts":[{"text":"a","thought":true},{"functionCall":{"name":"n","args":{}}}]},{"role":"user","parts":[{"functionResponse":{"name":"n","response":{}}}]}],"systemInstruction":{"parts":[{"text":"s"}]}}`))
	f.Add([]byte(`{"tools":[{"functionDeclarations":[{"name":"n","parameters":{}}]}]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		r := httptest.NewRequest("POST", "/v1beta/models/m:generateContent", nil)
		r.SetPathValue("call", "m:generateContent")
		_, _ = decodeGemini(r, body)
	})
}
