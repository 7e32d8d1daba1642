package agentevaltest

import (
	"encoding/json"
	"strings"
	"sync"
	"unicode"

	"github.com/agenteval/agenteval/matrix"
)

// maxValueName is the most characters of one parameter value a subtest
// name carries.
const maxValueName = 40

// namer names a job's subtest: its id with the combination's hash replaced
// by the combination's parameter values (input=What_is_the_weather_in_Paris,
// responseFn=condition_sunny_temp_c_21), readable in `go test` output and
// usable as a -run pattern as printed. A name is the same in every run of
// the same matrix. When a value had to be cut, or two combinations would
// read the same, the name keeps the combination's hash as well, so that
// names stay unique.
type namer struct {
	mu    sync.Mutex
	taken map[string]string // readable combination part → combination id
}

func (n *namer) name(j matrix.Job) string {
	if len(j.Params) == 0 || j.Combination == "" || j.Combination == matrix.SingleCombination {
		return j.ID
	}
	part, cut := paramsName(j.Params)
	if cut {
		part += "~" + j.Combination
	}
	n.mu.Lock()
	if n.taken == nil {
		n.taken = map[string]string{}
	}
	if c, ok := n.taken[part]; ok && c != j.Combination {
		part += "~" + j.Combination
	} else {
		n.taken[part] = j.Combination
	}
	n.mu.Unlock()
	return strings.Replace(j.ID, "/"+j.Combination+"/", "/"+part+"/", 1)
}

// paramsName is key=value,key=value for params, keyed by each path's last
// field when those differ (by the whole path when they do not), and
// whether a value was cut.
func paramsName(params []matrix.Param) (string, bool) {
	keys := make([]string, len(params))
	seen := map[string]bool{}
	short := true
	for i, p := range params {
		keys[i] = leaf(p.Path)
		if keys[i] == "" || seen[keys[i]] {
			short = false
		}
		seen[keys[i]] = true
	}
	var b strings.Builder
	cut := false
	for i, p := range params {
		if i > 0 {
			b.WriteByte(',')
		}
		k := keys[i]
		if !short {
			k, _ = clean(p.Path, 0)
		}
		v, c := clean(valueText(p.Value), maxValueName)
		cut = cut || c
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(v)
	}
	return b.String(), cut
}

// leaf is a parameter path's last field: run[0].input → input.
func leaf(path string) string {
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		path = path[i+1:]
	}
	if i := strings.IndexByte(path, '['); i >= 0 {
		path = path[:i]
	}
	s, _ := clean(path, 0)
	return s
}

// valueText is a parameter value as text: a string as itself, anything
// else as compact JSON.
func valueText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	return string(b)
}

// clean keeps letters, digits, '-', '.' and '_' of s, every run of other
// characters becoming one '_' (none at either end), so that the name holds
// no space (go test would rewrite it), no '/' (a level of subtests), and
// nothing a -run pattern would read as more than itself but '.' (which
// matches itself too). With max > 0 it keeps at most max characters and
// says whether it cut.
func clean(s string, max int) (string, bool) {
	var b strings.Builder
	gap := false
	n := 0
	for _, r := range s {
		ok := unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '.' || r == '_'
		if !ok {
			gap = b.Len() > 0
			continue
		}
		if max > 0 && n >= max {
			return strings.TrimRight(b.String(), "_"), true
		}
		if gap {
			b.WriteByte('_')
			n++
			gap = false
		}
		b.WriteRune(r)
		n++
	}
	if b.Len() == 0 {
		return "_", false
	}
	return b.String(), false
}
