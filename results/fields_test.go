package results

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/redact"
)

// The tests below fill every field of every record type by reflection, so
// that a field added later is covered without anyone remembering to add
// it: the hand-written job encoder must write it as encoding/json does, and
// the Writer must mask a secret in it (in a map's keys too) and keep it.

// fieldSecret is the secret every filled text holds.
const fieldSecret = "s3cr3t-FieldToken-0123456789abcdef"

var (
	timeType     = reflect.TypeFor[time.Time]()
	rawType      = reflect.TypeFor[json.RawMessage]()
	marshalerTyp = reflect.TypeFor[json.Marshaler]()
)

// fill sets every exported field reachable from v (json:"-" ones aside) to
// a value that is not empty: texts, map keys and open-ended values hold the
// secret, numbers and flags are not zero, slices and maps have one element.
func fill(v reflect.Value) {
	t := v.Type()
	switch {
	case t == timeType:
		v.Set(reflect.ValueOf(time.Date(2026, 11, 28, 1, 2, 3, 4000, time.UTC)))
		return
	case t == rawType:
		b, _ := json.Marshal("raw " + fieldSecret)
		v.SetBytes(b)
		return
	}
	switch t.Kind() {
	case reflect.String:
		v.SetString("text " + fieldSecret + " end")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(7)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(7)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(1.5)
	case reflect.Pointer:
		v.Set(reflect.New(t.Elem()))
		fill(v.Elem())
	case reflect.Interface:
		v.Set(reflect.ValueOf(map[string]any{"key " + fieldSecret: []any{"any " + fieldSecret}}))
	case reflect.Slice:
		v.Set(reflect.MakeSlice(t, 1, 1))
		fill(v.Index(0))
	case reflect.Map:
		m := reflect.MakeMap(t)
		k := reflect.New(t.Key()).Elem()
		fill(k)
		e := reflect.New(t.Elem()).Elem()
		fill(e)
		m.SetMapIndex(k, e)
		v.Set(m)
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			if f.IsExported() && f.Tag.Get("json") != "-" {
				fill(v.Field(i))
			}
		}
	default:
		panic("fill: no filler for " + t.String())
	}
}

func filled[T any]() *T {
	v := new(T)
	fill(reflect.ValueOf(v).Elem())
	return v
}

// jsonName is a field's name in JSON, or "" when it is not written.
func jsonName(f reflect.StructField) string {
	tag := f.Tag.Get("json")
	if tag == "-" || !f.IsExported() {
		return ""
	}
	if name, _, _ := strings.Cut(tag, ","); name != "" {
		return name
	}
	return f.Name
}

// requireFields fails for every field of t that decoded (a record read
// back) lacks, at any depth; path names the place.
func requireFields(t *testing.T, typ reflect.Type, decoded any, path string) {
	t.Helper()
	if typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	if typ == timeType || typ == rawType || reflect.PointerTo(typ).Implements(marshalerTyp) {
		return // its own form; present is enough
	}
	switch typ.Kind() {
	case reflect.Struct:
		obj, ok := decoded.(map[string]any)
		if !assert.True(t, ok, "%s: want an object, got %T", path, decoded) {
			return
		}
		for i := range typ.NumField() {
			f := typ.Field(i)
			name := jsonName(f)
			if name == "" {
				continue
			}
			v, ok := obj[name]
			if assert.True(t, ok, "%s.%s: the field is not written", path, name) {
				requireFields(t, f.Type, v, path+"."+name)
			}
		}
	case reflect.Slice:
		arr, ok := decoded.([]any)
		if assert.True(t, ok, "%s: want an array, got %T", path, decoded) && assert.Len(t, arr, 1, path) {
			requireFields(t, typ.Elem(), arr[0], path+"[0]")
		}
	case reflect.Map:
		obj, ok := decoded.(map[string]any)
		if assert.True(t, ok, "%s: want an object, got %T", path, decoded) && assert.Len(t, obj, 1, path) {
			for k, v := range obj {
				requireFields(t, typ.Elem(), v, path+"["+k+"]")
			}
		}
	}
}

// TestJobEncodingIsEncodingJSONForEveryField: with every field of a job
// filled, AppendJob writes byte for byte what encoding/json writes: a
// field the hand-written encoder forgets, or writes in its own way, fails.
func TestJobEncodingIsEncodingJSONForEveryField(t *testing.T) {
	t.Parallel()
	job := filled[Job]()
	got, err := AppendJob(nil, job)
	require.NoError(t, err)
	var want bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetEscapeHTML(false)
	require.NoError(t, enc.Encode(job))
	assert.Equal(t, strings.TrimSuffix(want.String(), "\n"), string(got))
}

// TestWriterMasksAndKeepsEveryField: a plan, a job and a budget record
// with every field filled go through the Writer with the secret in every
// text, map key and open-ended value: none of it reaches the file, and
// every field is there.
func TestWriterMasksAndKeepsEveryField(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "results.jsonl")
	plan := filled[Plan]()
	w, err := Open(path, plan, Options{Redactor: redact.New(fieldSecret)})
	require.NoError(t, err)
	require.NoError(t, w.Write(filled[Job]()))
	require.NoError(t, w.WriteBudget(filled[Budget]()))
	require.NoError(t, w.Close())
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.NotContains(t, string(data), fieldSecret)
	assert.NotContains(t, string(data), fieldSecret[4:20], "no part of the secret either")

	types := map[string]reflect.Type{RecordPlan: reflect.TypeFor[Plan](), RecordJob: reflect.TypeFor[Job](), RecordBudget: reflect.TypeFor[Budget]()}
	seen := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var rec map[string]any
		require.NoError(t, json.Unmarshal(sc.Bytes(), &rec), sc.Text())
		kind, _ := rec["record"].(string)
		typ, ok := types[kind]
		require.True(t, ok, "unknown record %q", kind)
		seen[kind] = true
		requireFields(t, typ, rec, kind)
	}
	require.NoError(t, sc.Err())
	assert.Len(t, seen, len(types), "every record kind was written")
}
