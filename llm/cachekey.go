package llm

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"math"
)

// keyVersion is part of every cache key. Bump it when the meaning of a
// cached entry changes, so old entries stop matching instead of answering
// a question that is no longer asked.
const keyVersion = 1

// CacheKey hashes everything that can change an answer: the model name,
// every field of the request and the sample index. The sample index is
// included so that k samples are k independent entries: a cache must not
// turn "ask five times" into "ask once, repeat four times".
//
// Fields are written length-prefixed straight into the hash rather than
// through encoding/json, which costs several times more for a long prompt
// and a schema. TestCacheKeyCoversRequest fails when Request gains a field
// that is not hashed here.
func CacheKey(model string, req Request, sample int) string {
	h := sha256.New()
	k := keyWriter{h: h}
	k.int(keyVersion)
	k.str(model)
	k.int(sample)
	k.int(len(req.Messages))
	for _, m := range req.Messages {
		k.str(m.Role)
		k.str(m.Content)
		k.str(m.Name)
		k.str(m.ToolCallID)
		k.toolCalls(m.ToolCalls)
	}
	k.str(req.Model)
	k.optFloat(req.Temperature)
	k.int(req.MaxTokens)
	if req.Seed != nil {
		k.int(1)
		k.int(int(*req.Seed))
	} else {
		k.int(0)
	}
	if s := req.JSONSchema; s != nil {
		k.int(1)
		k.str(s.Name)
		k.str(s.Description)
		k.bytes(s.Schema)
		k.bool(s.Strict)
	} else {
		k.int(0)
	}
	k.int(len(req.Tools))
	for _, t := range req.Tools {
		k.str(t.Name)
		k.str(t.Description)
		k.bytes(t.Parameters)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// keyWriter writes values unambiguously: every variable-length value is
// preceded by its length, so ("ab","c") and ("a","bc") hash differently.
type keyWriter struct {
	h   hash.Hash
	buf [8]byte
}

func (k *keyWriter) int(v int) {
	binary.LittleEndian.PutUint64(k.buf[:], uint64(v))
	k.h.Write(k.buf[:])
}

func (k *keyWriter) str(s string) {
	k.int(len(s))
	k.h.Write([]byte(s))
}

func (k *keyWriter) bytes(b []byte) {
	k.int(len(b))
	k.h.Write(b)
}

func (k *keyWriter) bool(b bool) {
	if b {
		k.int(1)
	} else {
		k.int(0)
	}
}

func (k *keyWriter) optFloat(f *float64) {
	if f == nil {
		k.int(0)
		return
	}
	k.int(1)
	k.int(int(math.Float64bits(*f)))
}

func (k *keyWriter) toolCalls(calls []ToolCall) {
	k.int(len(calls))
	for _, c := range calls {
		k.str(c.ID)
		k.str(c.Name)
		k.bytes(c.Arguments)
	}
}
