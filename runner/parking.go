package runner

import (
	"context"
	"sync"

	"github.com/agenteval/agenteval/internal/throttle"
)

// seats bound the jobs a run is running at Concurrency, not counting the
// jobs whose model call waits under a rate limit (internal/throttle):
// such a job gives its seat up while it waits, so that a job with other
// work (a different endpoint, tools, evaluations) runs meanwhile instead
// of the whole run queueing behind one endpoint's limit. A job that stops
// waiting sits down again at once, even when that makes one more than
// Concurrency for a moment: making it wait for a seat would hold the
// endpoint's turn it was just given. At most Concurrency more jobs than
// seats are in progress (a worker each), which bounds the run's memory.
type seats struct {
	mu       sync.Mutex
	cond     *sync.Cond
	seated   int
	capacity int
	parked   int
	// workers and maxWorkers count the run's workers; spawn starts one
	// more (set by the run before the first job).
	workers, maxWorkers int
	spawn               func()
}

func newSeats(capacity int) *seats {
	s := &seats{capacity: capacity, maxWorkers: 2 * capacity}
	s.cond = sync.NewCond(&s.mu)
	return s
}

// sit waits for a seat; false when ctx ended first.
func (s *seats) sit(ctx context.Context) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.seated >= s.capacity {
		// Only a wait needs waking when ctx ends.
		stop := context.AfterFunc(ctx, func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			s.cond.Broadcast()
		})
		defer stop()
	}
	for s.seated >= s.capacity {
		if ctx.Err() != nil {
			return false
		}
		s.cond.Wait()
	}
	s.seated++
	return true
}

// addWorker counts a worker the feeder starts; false when there are
// Concurrency already (the feeder's own bound).
func (s *seats) addWorker() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.workers >= s.capacity {
		return false
	}
	s.workers++
	return true
}

// seat is one job's place: its model calls give it up while they wait
// under a rate limit (internal/throttle) and take it back after. A call
// abandoned at its deadline may tell of its wait after the job is over:
// that changes nothing.
type seat struct {
	s       *seats
	held    bool
	over    bool
	waiting int
}

// take sits a job down (sit has counted it): its seat is held.
func (s *seats) take() *seat { return &seat{s: s, held: true} }

// hook is the job's throttle hook: waiting gives the seat up, and starts
// another worker when every worker has a job or waits; done sits down
// again at once.
func (st *seat) hook(waiting bool) {
	s := st.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if !waiting {
		st.waiting--
		s.parked--
		if st.waiting == 0 && !st.held && !st.over {
			st.held = true
			s.seated++
		}
		return
	}
	st.waiting++
	s.parked++
	if st.held {
		st.held = false
		s.seated--
		s.cond.Signal()
	}
	if s.workers < s.maxWorkers && s.workers-s.parked < s.capacity && s.spawn != nil {
		s.workers++
		s.spawn()
	}
}

// end is the job's end: its seat, when held, is free.
func (st *seat) end() {
	s := st.s
	s.mu.Lock()
	defer s.mu.Unlock()
	st.over = true
	if st.held {
		st.held = false
		s.seated--
		s.cond.Signal()
	}
}

// withHook is ctx with the seat's hook for the job's model calls.
func (st *seat) withHook(ctx context.Context) context.Context {
	return throttle.WithHook(ctx, st.hook)
}
