package matrix

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFreeTextSlots pins which axes take the one-check-per-emptiness path:
// free text does, anything the loader reads (enums, patterns, numbers,
// free-form character keys) does not.
func TestFreeTextSlots(t *testing.T) {
	t.Parallel()
	_, f := loadMatrix(t, oneAxis("name", "[a]"))
	p, diags := Compile(f, Options{})
	require.False(t, diags.HasErrors(), "%v", diags)
	for path, want := range map[string]bool{
		"name":                                       true,
		"run[0].input":                               true,
		"run[0].evaluations[0].value":                true,
		"run[0].evaluations[0].description":          true,
		`setup.virtual_fs["data.json"]`:              true,
		"run[1].conversation.user_simulator.persona": true,
		"judgment.strategy":                          false,
		"run[1].conversation.max_turns":              false,
		"character.favorite_color":                   false,
		"environment.type":                           false,
	} {
		sp, err := parseFullPath(path)
		require.NoError(t, err, path)
		steps, err := newResolver().resolve(reflect.ValueOf(p.base), sp)
		require.NoError(t, err, path)
		assert.Equal(t, want, freeTextSlot(reflect.ValueOf(p.base), steps), path)
	}
}

// TestFreeTextAxisMatchesLoader sweeps a prompt over many values: every
// job still equals what loading its scenario in full gives, and an empty
// value is checked on its own (here it is an error: the step then has
// neither input nor code).
func TestFreeTextAxisMatchesLoader(t *testing.T) {
	t.Parallel()
	var vals []string
	for i := range 50 {
		vals = append(vals, fmt.Sprintf("%q", fmt.Sprintf("Prompt %d: {{x}} ${y} on: yes [", i)))
	}
	l, f := loadMatrix(t, oneAxis("run[0].input", "["+strings.Join(vals, ", ")+"]"))
	p, diags := Compile(f, Options{})
	require.False(t, diags.HasErrors(), "%v", diags)
	for j, err := range p.Jobs(context.Background()) {
		require.NoError(t, err)
		checkAgainstLoader(t, l, f, p, j)
	}
	_, f = loadMatrix(t, oneAxis("run[0].input", `["fine", ""]`))
	_, diags = Compile(f, Options{})
	require.True(t, diags.HasErrors(), "an empty input leaves the step with nothing to do")
}
