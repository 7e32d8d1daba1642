package runner

import (
	"strconv"
	"sync"
	"unsafe"

	"github.com/agenteval/agenteval/evaluate"
	"github.com/agenteval/agenteval/registry"
	"github.com/agenteval/agenteval/scenario"
)

// compileCache builds each scenario's evaluations once. Matrix variants are
// distinct *Scenario values that share the evaluation lists an override
// does not touch, so the key is the identity of those lists: regexes and
// templates compile once per distinct list, not once per run or variant.
type compileCache struct {
	reg *registry.Registry[*evaluate.Kind]
	mu  sync.Mutex
	m   map[string]*compileEntry
}

type compileEntry struct {
	c   *evaluate.Compiled
	err error
	// keep holds the scenario so that the lists whose addresses make the key
	// stay alive: freed memory reused by another list must never hit.
	keep *scenario.Scenario
}

const compileCacheMax = 4096

func newCompileCache(reg *registry.Registry[*evaluate.Kind]) *compileCache {
	return &compileCache{reg: reg, m: map[string]*compileEntry{}}
}

func (c *compileCache) get(s *scenario.Scenario) (*evaluate.Compiled, error) {
	var buf [256]byte
	key := compileKey(buf[:0], s)
	c.mu.Lock()
	e, ok := c.m[string(key)]
	c.mu.Unlock()
	if ok {
		return e.c, e.err
	}
	comp, err := evaluate.Compile(c.reg, s)
	c.mu.Lock()
	if len(c.m) >= compileCacheMax {
		clear(c.m) // bounded: a sweep over many evaluation variants recompiles rather than grows
	}
	c.m[string(key)] = &compileEntry{comp, err, s}
	c.mu.Unlock()
	return comp, err
}

func compileKey(b []byte, s *scenario.Scenario) []byte {
	ptr := func(b []byte, p unsafe.Pointer, n int) []byte {
		b = strconv.AppendUint(b, uint64(uintptr(p)), 36)
		b = append(b, ':')
		b = strconv.AppendInt(b, int64(n), 36)
		return append(b, ';')
	}
	for i := range s.Run {
		st := &s.Run[i]
		b = ptr(b, unsafe.Pointer(unsafe.SliceData(st.Evaluations)), len(st.Evaluations))
		if c := st.Conversation; c != nil {
			b = ptr(b, unsafe.Pointer(unsafe.SliceData(c.TurnEvaluations)), len(c.TurnEvaluations))
			b = ptr(b, unsafe.Pointer(unsafe.SliceData(c.FinalEvaluations)), len(c.FinalEvaluations))
		}
		b = append(b, '|')
	}
	return b
}
