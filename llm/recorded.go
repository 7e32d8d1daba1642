package llm

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/agenteval/agenteval/redact"
)

// The parts a recorded model plays in a run (its role in a call site; not a
// message role): a cassette keys calls by it.
const (
	CallerAgent = "agent"
	CallerUser  = "user"
	CallerJudge = "judge"
)

// Cassette holds the recorded answers of a run: every model call, and any
// other answer a job receives that a replay must give again (the runner's
// probabilistic mock draws, checkpoint task results). An answer is keyed by
// where it was asked (its call site): the job and attempt, the role, the sample
// and the call's ordinal among that job attempt's calls of that role and
// sample. Concurrency, judge samples and repetitions therefore each keep
// their own answer, and a replay hands every call the answer its own call
// got when the run was recorded.
//
// Recording never answers from the cassette: every call goes to the live
// model and its answer (or error) is stored, over any earlier one. Replaying
// never calls anything: a call the cassette does not hold, or whose request
// differs from the one recorded at its site, fails with an error wrapping
// [ErrNotRecorded] that shows the difference, and the job's attempt is
// incomplete ([JobReplayMiss]).
//
// On disk (NewCassette) a cassette is a directory of JSON files, one per
// answer, named by the hex SHA-256 of the site (DIR/ab/abcd….json), each
// {"site": {"job", "attempt", "role", "name", "sample", "ordinal", "call"},
// "request": …, "answer": …} or, for a call that failed, "error" (its text)
// with "status" (an HTTP status from a model API) or "kind" ("timeout",
// "connection") so that a replayed failure has the cause the live one had.
// Every file is masked by the redactor on its way to disk: no secret is
// stored, and a request is compared after the same masking.
type Cassette struct {
	cache    Cache
	replay   bool
	redactor *redact.Redactor
	// loose numbers the calls made outside any job (WithJob).
	mu    sync.Mutex
	loose map[callCounter]int
}

// NewCassette opens the cassette in dir (created when missing); replay
// selects replaying (answers only from dir) over recording. A nil redactor
// masks the secrets of the process's environment.
func NewCassette(dir string, replay bool, r *redact.Redactor) (*Cassette, error) {
	if r == nil {
		r = redact.FromEnvironment(os.Environ())
	}
	c, err := NewDirCache(dir, r)
	if err != nil {
		return nil, err
	}
	return newCassetteIn(c, replay, r), nil
}

// newCassetteIn returns a cassette kept in c (a [NewMemoryCache] for
// tests); r masks what is stored and compared (nil: nothing is masked
// beyond what c masks).
func newCassetteIn(c Cache, replay bool, r *redact.Redactor) *Cassette {
	return &Cassette{cache: c, replay: replay, redactor: r}
}

// ErrNotRecorded is wrapped by the error of a replayed call with no
// recording at its site, or whose request differs from the recorded one.
var ErrNotRecorded = errors.New("llm: call not recorded (replay)")

// callSite is where an answer was asked: what a cassette keys it by.
type callSite struct {
	// Job and Attempt are the job's id and attempt (from 1); "" and 0
	// for a call made outside any job.
	Job     string `json:"job"`
	Attempt int    `json:"attempt"`
	// Role is CallerAgent, CallerUser, CallerJudge, or another asker's name
	// ("mock", "checkpoint").
	Role string `json:"role"`
	// Name names the model (or service) answering.
	Name string `json:"name,omitempty"`
	// Sample is the judge sample the call is for (0 otherwise).
	Sample int `json:"sample"`
	// Ordinal numbers the calls of one job attempt with the same role,
	// name, sample and Call, from 0.
	Ordinal int `json:"ordinal"`
	// Call, when set, separates calls that may run concurrently within a
	// job (checkpoint tasks: the task and a digest of its input).
	Call string `json:"call,omitempty"`
}

func (s callSite) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s call %d", s.Role, s.Ordinal)
	if s.Sample != 0 {
		fmt.Fprintf(&b, " of sample %d", s.Sample)
	}
	if s.Job != "" {
		fmt.Fprintf(&b, " in job %s attempt %d", s.Job, s.Attempt)
	}
	return b.String()
}

func (s callSite) key() string {
	b, _ := json.Marshal(s) // strings and ints: cannot fail
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// entry is one recorded answer as stored.
type entry struct {
	Site    callSite        `json:"site"`
	Request json.RawMessage `json:"request"`
	Answer  json.RawMessage `json:"answer,omitempty"`
	Error   string          `json:"error,omitempty"`
	Status  int             `json:"status,omitempty"`
	Kind    string          `json:"kind,omitempty"`
}

// Play answers one call made at ctx's job (see [WithJob]): replaying, from
// the cassette; recording, from live, storing the answer and returning it as
// a replay will (decoded from its JSON, so both see the same values).
// request is what the call asked (compared on replay); call separates calls
// that may run concurrently within a job (see callSite.Call).
func Play[T any](ctx context.Context, c *Cassette, role, name, call string, request any, live func(context.Context) (T, error)) (T, error) {
	var zero T
	site := c.site(ctx, role, name, call)
	req, err := json.Marshal(request)
	if err != nil {
		return zero, fmt.Errorf("llm: cassette: encode the request: %w", err)
	}
	if c.replay {
		v, err := c.replayed(ctx, site, req, reflect.TypeFor[T]())
		if err != nil {
			if errors.Is(err, ErrNotRecorded) {
				noteMiss(ctx, err)
			}
			return zero, err
		}
		return v.(T), nil
	}
	ans, callErr := live(ctx)
	e := entry{Site: site, Request: req}
	if callErr != nil {
		e.Error, e.Status, e.Kind = callErr.Error(), statusOf(callErr), kindOf(callErr)
	} else if e.Answer, err = json.Marshal(ans); err != nil {
		return zero, fmt.Errorf("llm: cassette: encode the answer: %w", err)
	}
	b, err := json.Marshal(e)
	if err == nil {
		if c.redactor != nil {
			b = c.redactor.JSON(b)
		}
		err = c.cache.Put(ctx, site.key(), b)
	}
	if err != nil {
		// A recording with a hole cannot replay the run: the attempt is
		// not reproducible, so it is not taken as recorded.
		err = fmt.Errorf("llm: cassette: recording %s: %w", site, err)
		noteMiss(ctx, err)
		return zero, err
	}
	if callErr != nil {
		return zero, callErr
	}
	var out T
	if err := json.Unmarshal(e.Answer, &out); err != nil {
		return zero, fmt.Errorf("llm: cassette: decode the answer: %w", err)
	}
	return out, nil
}

// site numbers a call at ctx's job.
func (c *Cassette) site(ctx context.Context, role, name, call string) callSite {
	s := callSite{Role: role, Name: name, Sample: sampleOf(ctx), Call: call}
	k := callCounter{role: role, name: name, sample: s.Sample, call: call}
	if jc, ok := ctx.Value(jobKey{}).(*jobCalls); ok {
		s.Job, s.Attempt = jc.job, jc.attempt
		jc.mu.Lock()
		s.Ordinal = jc.next[k]
		jc.next[k]++
		jc.mu.Unlock()
		return s
	}
	c.mu.Lock()
	if c.loose == nil {
		c.loose = map[callCounter]int{}
	}
	s.Ordinal = c.loose[k]
	c.loose[k]++
	c.mu.Unlock()
	return s
}

// replayed returns the answer recorded at site for req, as a value of type t.
func (c *Cassette) replayed(ctx context.Context, site callSite, req []byte, t reflect.Type) (any, error) {
	b, ok, err := c.cache.Get(ctx, site.key())
	if err != nil {
		return nil, fmt.Errorf("llm: cassette: reading %s: %w", site, err)
	}
	if !ok {
		return nil, fmt.Errorf("%w: nothing was recorded for %s", ErrNotRecorded, site)
	}
	var e entry
	if err := json.Unmarshal(b, &e); err != nil {
		return nil, fmt.Errorf("%w: the recording of %s is unreadable: %v", ErrNotRecorded, site, err)
	}
	if d := c.diff(e.Request, req); d != "" {
		return nil, fmt.Errorf("%w: the request of %s differs from the recorded one: %s", ErrNotRecorded, site, d)
	}
	if e.Error != "" {
		return nil, replayedError(e)
	}
	v := reflect.New(t)
	if err := json.Unmarshal(e.Answer, v.Interface()); err != nil {
		return nil, fmt.Errorf("%w: the answer recorded for %s does not decode: %v", ErrNotRecorded, site, err)
	}
	return v.Elem().Interface(), nil
}

// diff compares a recorded request with one made now, both masked as the
// cassette stores them, and describes the first differences ("" if none).
func (c *Cassette) diff(recorded, now []byte) string {
	if c.redactor != nil {
		now = c.redactor.JSON(now)
	}
	if bytes.Equal(recorded, now) {
		return ""
	}
	var a, b any
	if json.Unmarshal(recorded, &a) != nil || json.Unmarshal(now, &b) != nil {
		return fmt.Sprintf("recorded %s, now %s", clip(string(recorded)), clip(string(now)))
	}
	var out []string
	diffValues("", a, b, &out)
	if len(out) == 0 {
		return ""
	}
	const show = 3
	s := strings.Join(out[:min(show, len(out))], "; ")
	if len(out) > show {
		s += fmt.Sprintf("; and %d more", len(out)-show)
	}
	return s
}

// diffValues appends "path: recorded X, now Y" for each differing leaf.
func diffValues(path string, a, b any, out *[]string) {
	if len(*out) > 10 {
		return
	}
	switch av := a.(type) {
	case map[string]any:
		if bv, ok := b.(map[string]any); ok {
			keys := make([]string, 0, len(av)+len(bv))
			for k := range av {
				keys = append(keys, k)
			}
			for k := range bv {
				if _, ok := av[k]; !ok {
					keys = append(keys, k)
				}
			}
			slices.Sort(keys)
			for _, k := range keys {
				diffValues(joinPath(path, k), av[k], bv[k], out)
			}
			return
		}
	case []any:
		if bv, ok := b.([]any); ok {
			for i := range max(len(av), len(bv)) {
				var x, y any
				if i < len(av) {
					x = av[i]
				}
				if i < len(bv) {
					y = bv[i]
				}
				diffValues(path+"["+strconv.Itoa(i)+"]", x, y, out)
			}
			return
		}
	}
	if reflect.DeepEqual(a, b) {
		return
	}
	if path == "" {
		path = "request"
	}
	*out = append(*out, fmt.Sprintf("%s: recorded %s, now %s", path, show(a), show(b)))
}

func joinPath(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}

func show(v any) string {
	if v == nil {
		return "nothing"
	}
	b, _ := json.Marshal(v)
	return clip(string(b))
}

func clip(s string) string {
	const n = 120
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "…"
}

// replayedError is a recorded failure, given again: it keeps the text and,
// through Unwrap, the class (an *APIError, a timeout, a lost connection)
// that callers branch on.
func replayedError(e entry) error {
	switch {
	case e.Status != 0:
		return &recordedError{text: e.Error, err: &APIError{StatusCode: e.Status, Message: e.Error}}
	case e.Kind == "timeout":
		return &recordedError{text: e.Error, err: context.DeadlineExceeded}
	case e.Kind == "connection":
		return &recordedError{text: e.Error, err: syscall.ECONNRESET}
	}
	return errors.New(e.Error)
}

type recordedError struct {
	text string
	err  error
}

func (e *recordedError) Error() string { return e.text }
func (e *recordedError) Unwrap() error { return e.err }

func statusOf(err error) int {
	var api *APIError
	if errors.As(err, &api) {
		return api.StatusCode
	}
	return 0
}

func kindOf(err error) string {
	switch {
	case statusOf(err) != 0:
		return ""
	case errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	case isConnectionLost(err):
		return "connection"
	}
	return ""
}

// isConnectionLost reports whether err is a lost or refused connection (a
// reset, a refusal, a response cut short), not an answer.
func isConnectionLost(err error) bool {
	var op *net.OpError
	return errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.EPIPE) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.As(err, &op)
}

// Recorded is a model whose calls go through a [Cassette]: recording, each
// call goes to Model and its answer is stored at the call's site; replaying,
// each call is answered from the cassette alone (Model may be nil), so a
// run replays offline, call for call.
type Recorded struct {
	// Model answers live calls (unused when replaying).
	Model Model
	// Name names the model in the cassette (Model's own name, [Namer], when empty).
	Name string
	// Role is the part the model plays: CallerAgent, CallerUser or CallerJudge.
	Role string
	// Cassette holds the answers; required.
	Cassette *Cassette
}

// Complete answers req at ctx's job and sample (see [WithJob], [WithSample]).
func (r *Recorded) Complete(ctx context.Context, req Request) (Response, error) {
	if r.Cassette == nil {
		return Response{}, errors.New("llm: Recorded needs a Cassette")
	}
	return Play(ctx, r.Cassette, r.Role, r.name(), "", req, func(ctx context.Context) (Response, error) {
		if r.Model == nil {
			return Response{}, errors.New("llm: Recorded has no Model to record")
		}
		resp, err := r.Model.Complete(ctx, req)
		if err != nil {
			noteFailure(ctx, err)
		}
		return resp, err
	})
}

// name names the recorded model in the cassette.
func (r *Recorded) name() string {
	if r.Name != "" {
		return r.Name
	}
	if r.Model != nil {
		return nameOf(r.Model)
	}
	return ""
}

// jobCalls is what the calls of one job attempt share: their counters, and
// what went wrong with them.
type jobCalls struct {
	job     string
	attempt int
	mu      sync.Mutex
	next    map[callCounter]int
	failure error
	miss    error
}

type callCounter struct {
	role, name string
	sample     int
	call       string
}

type (
	jobKey    struct{}
	sampleKey struct{}
)

// WithJob returns ctx for the calls of one attempt (from 1) of job: a
// [Cassette] numbers them within it, and [JobFailure] and [JobReplayMiss]
// report on them.
func WithJob(ctx context.Context, job string, attempt int) context.Context {
	return context.WithValue(ctx, jobKey{}, &jobCalls{job: job, attempt: attempt, next: map[callCounter]int{}})
}

// WithSample returns ctx for the calls of one judge sample (from 0).
func WithSample(ctx context.Context, sample int) context.Context {
	return context.WithValue(ctx, sampleKey{}, sample)
}

func sampleOf(ctx context.Context) int {
	n, _ := ctx.Value(sampleKey{}).(int)
	return n
}

// noteFailure keeps err as the last failed model call of ctx's job attempt
// (see [JobFailure]); the model client calls it for every call it gives up on.
func noteFailure(ctx context.Context, err error) {
	if jc, ok := ctx.Value(jobKey{}).(*jobCalls); ok && err != nil {
		jc.mu.Lock()
		jc.failure = err
		jc.mu.Unlock()
	}
}

// JobFailure returns the last model call of ctx's job attempt that failed,
// or nil: what kept an evaluation that reports only text from its answer.
func JobFailure(ctx context.Context) error {
	jc, ok := ctx.Value(jobKey{}).(*jobCalls)
	if !ok {
		return nil
	}
	jc.mu.Lock()
	defer jc.mu.Unlock()
	return jc.failure
}

func noteMiss(ctx context.Context, err error) {
	if jc, ok := ctx.Value(jobKey{}).(*jobCalls); ok {
		jc.mu.Lock()
		if jc.miss == nil {
			jc.miss = err
		}
		jc.mu.Unlock()
	}
}

// JobReplayMiss returns the first call of ctx's job attempt that a
// cassette could not replay (or record), or nil. Such an attempt is not the
// recorded run, whatever its caller made of the error.
func JobReplayMiss(ctx context.Context) error {
	jc, ok := ctx.Value(jobKey{}).(*jobCalls)
	if !ok {
		return nil
	}
	jc.mu.Lock()
	defer jc.mu.Unlock()
	return jc.miss
}
