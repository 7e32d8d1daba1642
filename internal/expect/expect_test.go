package expect_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/internal/expect"
)

func TestParse(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want expect.Expectation
		met  []float64 // scores that satisfy a score expectation
		not  []float64 // scores that do not
	}{
		{in: "yes", want: expect.Expectation{Kind: expect.KindYesNo, Yes: true, Text: "yes"}},
		{in: " NO ", want: expect.Expectation{Kind: expect.KindYesNo, Text: "NO"}},
		{in: "0.8+", want: expect.Expectation{Kind: expect.KindScore, Op: ">=", Threshold: 0.8, Text: "0.8+"}, met: []float64{0.8, 1}, not: []float64{0.79}},
		{in: "0.3-", want: expect.Expectation{Kind: expect.KindScore, Op: "<=", Threshold: 0.3, Text: "0.3-"}, met: []float64{0.3, 0}, not: []float64{0.31}},
		{in: "<0.3", want: expect.Expectation{Kind: expect.KindScore, Op: "<", Threshold: 0.3, Text: "<0.3"}, met: []float64{0.29}, not: []float64{0.3}},
		{in: ">=0.7", want: expect.Expectation{Kind: expect.KindScore, Op: ">=", Threshold: 0.7, Text: ">=0.7"}, met: []float64{0.7}, not: []float64{0.69}},
		{in: "> .5", want: expect.Expectation{Kind: expect.KindScore, Op: ">", Threshold: 0.5, Text: "> .5"}, met: []float64{0.51}, not: []float64{0.5}},
		{in: "<=0.2", want: expect.Expectation{Kind: expect.KindScore, Op: "<=", Threshold: 0.2, Text: "<=0.2"}, met: []float64{0.2}, not: []float64{0.21}},
		{in: "≥0.9", want: expect.Expectation{Kind: expect.KindScore, Op: ">=", Threshold: 0.9, Text: "≥0.9"}, met: []float64{0.95}, not: []float64{0.5}},
		{in: "0.6-0.9", want: expect.Expectation{Kind: expect.KindScore, Op: "range", Min: 0.6, Max: 0.9, Text: "0.6-0.9"}, met: []float64{0.6, 0.9}, not: []float64{0.59, 0.91}},
		{in: "The agent lists three open issues", want: expect.Expectation{Kind: expect.KindText, Text: "The agent lists three open issues"}},
		{in: "3 issues listed", want: expect.Expectation{Kind: expect.KindText, Text: "3 issues listed"}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			got, err := expect.Parse(tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			for _, s := range tt.met {
				assert.True(t, got.MetBy(s), "%v should meet %s", s, got)
			}
			for _, s := range tt.not {
				assert.False(t, got.MetBy(s), "%v should not meet %s", s, got)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	for _, in := range []string{"", "1.5+", ">2", "0.9-0.1"} {
		_, err := expect.Parse(in)
		assert.Error(t, err, "%q", in)
	}
}

// FuzzParse: any expected text parses or errors, never panics,
// and a parsed score expectation answers MetBy for any score.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"yes", "no", "0.8+", "<0.3", ">=0.7", "0.3-", "0.6-0.9", "≥0.5", "the agent apologises", "", "1e309+", "-0.1+"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e, err := expect.Parse(s)
		if err != nil {
			return
		}
		for _, score := range []float64{0, 0.5, 1} {
			_ = e.MetBy(score)
		}
		_ = e.String()
	})
}

func ExampleParse() {
	for _, s := range []string{"yes", "0.8+", "<0.3", "0.6-0.9", "The reply names the PR author"} {
		e, err := expect.Parse(s)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(e)
	}
	// Output:
	// answer yes
	// score >= 0.8
	// score < 0.3
	// score between 0.6 and 0.9
	// "The reply names the PR author"
}
