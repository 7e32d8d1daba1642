package view

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/results"
)

// scanRecord reads what encoding/json reads of the same line.
func TestScanRecordMatchesEncodingJSON(t *testing.T) {
	t.Parallel()
	for i := range 14 {
		j := jobOf(i)
		j.Agent, j.Model, j.Error = `a "quoted" \ agent`, "m\u00e9", "line\nbreak \"x\""
		line, err := results.AppendJob(nil, j)
		require.NoError(t, err)
		var got, want lineRecord
		require.NoError(t, scanRecord(line, &got))
		require.NoError(t, json.Unmarshal(line, &want))
		assert.Equal(t, want.why(), got.why())
		got.Evals, got.Checks, want.Evals, want.Checks = nil, nil, nil, nil
		want.Started = got.Started // the plan's field: a job's is not indexed
		assert.Equal(t, want, got)
	}
	for _, bad := range []string{``, `[]`, `{"a"}`, `{"a":}`, `{"a":"x`, `{"a":1,`, `{"index":"x"}`} {
		assert.Error(t, scanRecord([]byte(bad), &lineRecord{}), bad)
	}
}

// FuzzScanRecord: whatever the line, scanRecord returns (no panic), and on
// a line encoding/json accepts as a record it agrees with it.
func FuzzScanRecord(f *testing.F) {
	for i := range 8 {
		line, _ := results.AppendJob(nil, jobOf(i))
		f.Add(line)
	}
	f.Add([]byte(`{"record":"job","id":"a\"b","passed":true,"x":[{"y":"]}"}]}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		var got lineRecord
		err := scanRecord(line, &got)
		var want lineRecord
		if err != nil || json.Unmarshal(line, &want) != nil {
			return
		}
		if got.ID != want.ID || got.Passed != want.Passed || got.Scenario != want.Scenario {
			// Duplicate keys: encoding/json and the scanner both keep the last.
			t.Fatalf("scan %+v, json %+v", got, want)
		}
	})
}

// Past its bound an interner gives every new string one shared id.
func TestInternerBound(t *testing.T) {
	t.Parallel()
	in := interner{max: 3}
	ids := map[uint32]bool{}
	for i := range 10 {
		ids[in.id(string(rune('a'+i)))] = true
	}
	assert.Len(t, ids, 4, "three, and one for the rest")
	assert.Equal(t, otherReasons, in.str(in.id("zz")))
	assert.Equal(t, in.id("a"), uint32(1), "those before the bound keep theirs")
}
