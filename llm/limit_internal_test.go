package llm

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestBurstRefusalsLearnTheProvidersLevel: --concurrency requests leave at
// once and reach the provider in any order, so one sent early (few in
// flight when it was sent) may be refused for ones sent after it. The
// window learns what the provider held when it refused, not the early
// count: here 32 sent, the provider serves 8 and refuses the rest, the
// refusal of the 3rd sent arriving first. The window ends at 8, not 2.
func TestBurstRefusalsLearnTheProvidersLevel(t *testing.T) {
	t.Parallel()
	l := &limiter{owner: &Limits{}, now: time.Now}
	permits := make([]*permit, 32)
	l.mu.Lock()
	for i := range permits {
		permits[i] = l.admit()
	}
	l.mu.Unlock()
	refused := &http.Response{StatusCode: http.StatusTooManyRequests, Header: http.Header{"Retry-After": {"1"}}}
	// Served: the 1st, 2nd and 4th..9th sent; refused: the 3rd and 10th..32nd.
	order := append([]int{2}, func() []int {
		var r []int
		for i := 9; i < 32; i++ {
			r = append(r, i)
		}
		return r
	}()...)
	for _, i := range order {
		assert.True(t, l.release(permits[i], refused), "the %dth sent is retried in its turn, not after Retry-After", i+1)
	}
	assert.Equal(t, 8, l.bound(), "the window is what the provider held")
	assert.Equal(t, 8, l.inflight)
}
