package plan

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// decodeLikeJSON is how History read a line before it picked fields out:
// encoding/json into the record, the oracle of the tests below.
func decodeLikeJSON(line []byte) (histRecord, error) {
	var rec histRecord
	err := json.Unmarshal(line, &rec)
	return rec, err
}

// historyLines are record lines of every shape History meets: plain ones
// (read by their fields) and those left to encoding/json.
var historyLines = []string{
	`{"record":"plan","run_id":"r","total_jobs":3,"sources":["a","b"],"inputs":[{"path":"a","sha256":"x"}]}`,
	`{"record":"job","id":"m/c-1/run-1","index":0,"scenario":"s","params":{"x":[1,{"y":null}]},"completed":true,"duration_ms":12.5,"usage":{"prompt_tokens":10,"completion_tokens":4,"total_tokens":14},"evaluations":[{"type":"x","details":{"a":"b"}}],"environment":"local"}`,
	`{"record":"job","id":"m/c-1/run-2","scenario":"s","completed":true,"duration_ms":1e3,"usage":{"total_tokens":9,"reasoning_tokens":2,"cache_read_tokens":1,"cache_write_tokens":0}}`,
	`{"record":"job","id":"m/c-1/run-3","scenario":"s","completed":false,"duration_ms":99,"usage":null}`,
	`{"record":"job","id":"esc\u0061ped\/key\u2028/run-1","scenario":"s\"q","completed":true,"duration_ms":0}`,
	`{"record":"job","id":"bad-utf8-` + "\xff\xfe" + `/run-1","scenario":"s","completed":true}`,
	` { "record" : "job" , "id" : "spaced/run-1" , "completed" : true , "duration_ms" : -0 } `,
	`{"record":null,"id":null,"scenario":null,"completed":null,"duration_ms":null,"usage":null}`,
	`{"record":"job","id":"x/run-1","completed":true,"usage":{}}`,
	`{"record":"job","id":"x/run-1","completed":true,"usage":{"unknown":[1,2],"prompt_tokens":3}}`,
	`{}`,
	`{"other":"record"}`,
	// Left to encoding/json: case-folded, Kelvin-folded and repeated keys,
	// nested too; values of another kind; not an object.
	`{"Record":"job","ID":"fold/run-1","Completed":true,"duration_ms":5}`,
	`{"record":"job","id":"kelvin/run-1","completed":true,"usage":{"prompt_to\u212aens":7}}`,
	`{"record":"job","id":"first/run-1","id":"last/run-1","completed":true}`,
	`{"record":"job","id":"x/run-1","completed":true,"usage":{"prompt_tokens":1,"prompt_tokens":2}}`,
	`{"record":"job","id":"x/run-1","completed":true,"usage":{"Prompt_Tokens":1}}`,
	`{"record":"job","id":"x/run-1","completed":"yes"}`,
	`{"record":"job","id":7,"completed":true}`,
	`{"record":"job","id":"x/run-1","completed":true,"duration_ms":"5"}`,
	`{"record":"job","id":"x/run-1","completed":true,"usage":{"prompt_tokens":1.5}}`,
	`{"record":"job","id":"x/run-1","completed":true,"usage":{"prompt_tokens":1e2}}`,
	`{"record":"job","id":"x/run-1","completed":true,"usage":{"reasoning_tokens":"2"}}`,
	`{"record":"job","id":"x/run-1","completed":true,"usage":{"total_tokens":99999999999999999999}}`,
	`{"record":"job","id":"x/run-1","completed":true,"duration_ms":1e400}`,
	`{"record":"job","id":"x/run-1","completed":true,"usage":[1]}`,
	`{"record":"job","id":"x/run-1","completed":true,"usage":"none"}`,
	`null`, `[]`, `"job"`, `7`,
	// Torn: refused by both.
	`{"record":"job","id":"torn`,
	`{"record":"job","id":"x/run-1","completed":true,"usage":{"prompt_tokens":1}`,
	`{"record":"job","id":"x/run-1","completed":tru}`,
	`{"record":"job","id":"x/run-1" "completed":true}`,
	``,
}

// TestHistoryReadsWhatJSONReads: every line is read as encoding/json
// reads it (the same record, or refused by both), and the plain lines
// are read by their fields, not by encoding/json.
func TestHistoryReadsWhatJSONReads(t *testing.T) {
	t.Parallel()
	plain := 0
	for _, line := range historyLines {
		want, wantErr := decodeLikeJSON([]byte(line))
		var got histRecord
		err := decodeHistRecord([]byte(line), &got)
		require.Equal(t, wantErr == nil, err == nil, "%s: encoding/json says %v, History %v", line, wantErr, err)
		if err == nil {
			assert.Equal(t, want, got, line)
		}
		if scanHistRecord([]byte(line), &histRecord{}) == nil {
			plain++
		}
	}
	assert.Equal(t, 12, plain, "the lines before the folded keys are read by their fields")

	// The documented trade-off: what lies outside the fields read is not
	// validated (no writer makes these lines; encoding/json refuses them).
	for _, line := range []string{
		`{"record":"job","id":"x/run-1","completed":true,"transcript":[1 2]}`,
		`{"record":"job","id":"x/run-1","completed":true}}`,
		`{"record":"job","id":"x/run-1","completed":true,}`,
	} {
		var got histRecord
		require.NoError(t, decodeHistRecord([]byte(line), &got), line)
		assert.Equal(t, histRecord{Record: "job", ID: "x/run-1", Completed: true}, got, line)
	}
}

// FuzzHistoryRecord: on a line that is JSON, History reads what
// encoding/json reads (the same record, or refused by both); on any line
// it does not panic.
func FuzzHistoryRecord(f *testing.F) {
	for _, l := range historyLines {
		f.Add([]byte(l))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		var got histRecord
		err := decodeHistRecord(line, &got)
		if !json.Valid(line) {
			return
		}
		want, wantErr := decodeLikeJSON(line)
		if (wantErr == nil) != (err == nil) {
			t.Fatalf("%q: encoding/json says %v, History %v", line, wantErr, err)
		}
		if err == nil && fmt.Sprint(want) != fmt.Sprint(got) {
			t.Fatalf("%q: encoding/json reads %+v, History %+v", line, want, got)
		}
	})
}

// TestHistoryMeansAsBefore reads a generated history of 20,000 lines
// (600 job keys in 4 scenarios, runs in any order, incomplete jobs, other
// records, torn lines and lines left to encoding/json) and checks every
// key's and scenario's mean against History as it was: every line
// decoded by encoding/json, a map entry per key.
func TestHistoryMeansAsBefore(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(28, 6))
	var b strings.Builder
	b.WriteString(`{"record":"plan","run_id":"r","total_jobs":20000}` + "\n")
	keys := make([]string, 600)
	for i := range keys {
		keys[i] = fmt.Sprintf("m%d/c-%016x", i%3, rng.Uint64())
	}
	for range 20000 {
		k := keys[rng.IntN(len(keys))]
		id := fmt.Sprintf("%s/run-%d", k, 1+rng.IntN(5))
		sc := fmt.Sprintf("s%d", rng.IntN(4))
		ms := float64(rng.IntN(100000)) / 7
		switch r := rng.IntN(20); {
		case r == 0:
			fmt.Fprintf(&b, `{"record":"job","id":%q,"scenario":%q,"completed":true,"usage":{"prompt_tok`, id, sc) // torn
		case r == 1:
			fmt.Fprintf(&b, `{"Record":"job","ID":%q,"scenario":%q,"completed":true,"duration_ms":%v,"usage":{"total_tokens":%d}}`, id, sc, ms, rng.IntN(900))
		case r == 2:
			fmt.Fprintf(&b, `{"record":"budget","id":%q,"spent_usd":1}`, id)
		case r == 3:
			fmt.Fprintf(&b, `{"record":"job","id":%q,"scenario":%q,"completed":false,"duration_ms":%v,"usage":{"total_tokens":99999}}`, id, sc, ms)
		case r < 8:
			fmt.Fprintf(&b, `{"record":"job","id":%q,"scenario":%q,"completed":true,"duration_ms":%v,"usage":{"total_tokens":%d},"transcript":[{"role":"agent","content":"x\ny"}]}`, id, sc, ms, rng.IntN(900))
		default:
			fmt.Fprintf(&b, `{"record":"job","id":%q,"index":%d,"scenario":%q,"completed":true,"duration_ms":%v,"usage":{"prompt_tokens":%d,"completion_tokens":%d,"total_tokens":0}}`, id, rng.IntN(1e6), sc, ms, rng.IntN(900), rng.IntN(300))
		}
		b.WriteByte('\n')
	}
	text := b.String()

	// History as it was.
	type sums struct {
		n, in, out int64
		ms         float64
	}
	byKey, byScenario := map[string]*sums{}, map[string]*sums{}
	at := func(m map[string]*sums, k string) *sums {
		if m[k] == nil {
			m[k] = &sums{}
		}
		return m[k]
	}
	for line := range strings.Lines(text) {
		rec, err := decodeLikeJSON([]byte(strings.TrimSuffix(line, "\n")))
		if err != nil || rec.Record != "job" || !rec.Completed {
			continue
		}
		in, out := int64(rec.Usage.PromptTokens), int64(rec.Usage.CompletionTokens)
		if in == 0 && out == 0 {
			in = int64(rec.Usage.TotalTokens)
		}
		key, _ := jobKey(rec.ID)
		for _, s := range []*sums{at(byKey, key), at(byScenario, rec.Scenario)} {
			s.n++
			s.in += in
			s.out += out
			s.ms += rec.DurationMS
		}
	}

	h := NewHistory()
	require.NoError(t, h.Read("generated", strings.NewReader(text)))
	require.Len(t, h.byKey, len(byKey))
	require.Len(t, h.byScenario, len(byScenario))
	mean := func(s *sums) observation {
		return observation{tokens: Tokens{s.in / s.n, s.out / s.n}, ms: s.ms / float64(s.n)}
	}
	for k, s := range byKey {
		got, ok := h.lookup(k, "none")
		require.True(t, ok, k)
		assert.Equal(t, mean(s), got, k) // the same sums in the same order: equal, not close
	}
	for sc, s := range byScenario {
		got, ok := h.lookup("no such key", sc)
		require.True(t, ok, sc)
		assert.Equal(t, mean(s), got, sc)
	}
	_, ok := h.lookup("no such key", "no such scenario")
	assert.False(t, ok)
	var zero *History
	_, ok = zero.lookup(keys[0], "s0")
	assert.False(t, ok, "no history")
}
