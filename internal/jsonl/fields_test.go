package jsonl

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// typed is a record of one field of each kind a Value reads.
type typed struct {
	S  string   `json:"s"`
	I  int64    `json:"i"`
	F  float64  `json:"f"`
	B  bool     `json:"b"`
	SS []string `json:"ss"`
}

// scanTyped reads typed's fields with EachField and the typed readers.
func scanTyped(line []byte) (typed, error) {
	var t typed
	err := EachField(line, func(key []byte, v Value) error {
		var err error
		switch string(key) {
		case "s":
			t.S, err = v.String()
		case "i":
			t.I, err = v.Int()
		case "f":
			t.F, err = v.Float()
		case "b":
			t.B, err = v.Bool()
		case "ss":
			t.SS, err = v.Strings(nil)
		}
		return err
	})
	return t, err
}

// TestValueReadersAgreeWithEncodingJSON: each typed reader reads what
// encoding/json decodes into a field of its type (escapes, invalid UTF-8,
// nulls, the last of repeated keys) and refuses what it refuses.
func TestValueReadersAgreeWithEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, line := range []string{
		`{"s":"plain","i":-42,"f":1.5e3,"b":true,"ss":["a","b\"c"]}`,
		`{"s":"esc \" \\ \/ \b\f\n\r\t \u00e9 \u2028 \ud83d\ude00","ss":[]}`,
		"{\"s\":\"bad \xff\xfe utf-8 \xc3\"}",
		`{"s":null,"i":null,"f":null,"b":null,"ss":null}`,
		`{"s":"first","s":"last","other":{"s":"not this"},"list":[{"i":1}]}`,
		` { "i" : 7 , "f" : -0 } `,
		`{}`,
	} {
		want := typed{}
		require.NoError(t, json.Unmarshal([]byte(line), &want), line)
		got, err := scanTyped([]byte(line))
		require.NoError(t, err, line)
		assert.Equal(t, want, got, line)
	}
	for _, line := range []string{
		`{"s":1}`, `{"i":"1"}`, `{"i":1.5}`, `{"i":1e2}`, `{"i":99999999999999999999}`, `{"f":"x"}`,
		`{"b":0}`, `{"ss":"a"}`, `{"ss":[1]}`, `{"s":"\x"}`, `[]`, `"s"`, ``, `{"s":"a"`, `{"s" "a"}`,
	} {
		var want typed
		require.Error(t, json.Unmarshal([]byte(line), &want), "encoding/json refuses %s", line)
		_, err := scanTyped([]byte(line))
		assert.Error(t, err, line)
	}
}

// FuzzEachField: no line makes EachField or a reader panic, and on a line
// encoding/json decodes into the typed fields, they agree.
func FuzzEachField(f *testing.F) {
	f.Add([]byte(`{"s":"a\u00e9","i":1,"f":2.5,"b":false,"ss":["x",null]}`))
	f.Add([]byte(`{"s":"x","nested":{"s":"y","ss":[[1],{"a":"]"}]}}`))
	f.Add([]byte("{\"s\":\"\xff\"}"))
	f.Fuzz(func(t *testing.T, line []byte) {
		got, err := scanTyped(line)
		var want typed
		if err != nil || json.Unmarshal(line, &want) != nil {
			return
		}
		assert.Equal(t, want, got)
	})
}
