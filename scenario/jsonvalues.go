package scenario

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"strconv"
	"time"
)

// Duration is a length of time written either as a number of milliseconds
// (30000) or as a Go duration string ("30s", "1m30s").
type Duration time.Duration

// MarshalJSON writes d as a duration string.
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(time.Duration(d).String()) }

// UnmarshalJSON reads milliseconds or a duration string.
func (d *Duration) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		v, err := time.ParseDuration(s)
		if err != nil {
			return fmt.Errorf("invalid duration %q: want milliseconds or a duration such as \"30s\"", s)
		}
		*d = Duration(v)
		return nil
	}
	ms, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return fmt.Errorf("invalid duration %s: want milliseconds or a duration such as \"30s\"", b)
	}
	*d = Duration(time.Duration(ms * float64(time.Millisecond)))
	return nil
}

// StringList is one string or a list of strings; a single string decodes as a
// list of one.
type StringList []string

// UnmarshalJSON reads a string or an array of strings.
func (l *StringList) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*l = StringList{s}
		return nil
	}
	var ss []string
	if err := json.Unmarshal(b, &ss); err != nil {
		return err
	}
	*l = ss
	return nil
}

// UnmarshalJSON reads a plugin written as a bare name or as an object.
func (p *Plugin) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		*p = Plugin{}
		return json.Unmarshal(b, &p.Name)
	}
	type plain Plugin
	return json.Unmarshal(b, (*plain)(p))
}

// MarshalJSON writes an enabled plugin without options as its bare name.
func (p Plugin) MarshalJSON() ([]byte, error) {
	if p.Version == "" && p.Config == nil && p.Enabled == nil {
		return json.Marshal(p.Name)
	}
	type plain Plugin
	return json.Marshal(plain(p))
}

// characterKeys are the keys Character names; every other key goes to Extra.
var characterKeys = map[string]bool{"name": true, "bio": true, "system": true, "system_prompt": true, "llm": true, "temperature": true, "max_tokens": true}

// UnmarshalJSON reads the named fields and keeps every other key in Extra.
func (c *Character) UnmarshalJSON(b []byte) error {
	type plain Character
	if err := json.Unmarshal(b, (*plain)(c)); err != nil {
		return err
	}
	extra, err := extraKeys(b, characterKeys)
	c.Extra = extra
	return err
}

// MarshalJSON writes the named fields and Extra side by side.
func (c Character) MarshalJSON() ([]byte, error) {
	type plain Character
	return mergeExtra(plain(c), c.Extra)
}

var llmKeys = map[string]bool{"model": true, "temperature": true, "max_tokens": true}

// UnmarshalJSON reads the named fields and keeps every other key in Extra.
func (l *LLMConfig) UnmarshalJSON(b []byte) error {
	type plain LLMConfig
	if err := json.Unmarshal(b, (*plain)(l)); err != nil {
		return err
	}
	extra, err := extraKeys(b, llmKeys)
	l.Extra = extra
	return err
}

// MarshalJSON writes the named fields and Extra side by side.
func (l LLMConfig) MarshalJSON() ([]byte, error) {
	type plain LLMConfig
	return mergeExtra(plain(l), l.Extra)
}

func extraKeys(b []byte, known map[string]bool) (map[string]any, error) {
	var all map[string]any
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err := d.Decode(&all); err != nil {
		return nil, err
	}
	maps.DeleteFunc(all, func(k string, _ any) bool { return known[k] })
	if len(all) == 0 {
		return nil, nil
	}
	return all, nil
}

func mergeExtra(v any, extra map[string]any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil || len(extra) == 0 {
		return b, err
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	for k, x := range extra {
		if _, taken := m[k]; !taken {
			m[k] = x
		}
	}
	return json.Marshal(m)
}
