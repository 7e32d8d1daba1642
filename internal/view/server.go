// Package view is `agenteval view`: a local web viewer of results files.
// It indexes every results file under the given paths (the files of one
// run merged: those of one run id, and the shards of one run, whose plans
// agree but for run id, shard and start), keeps a compact index of each job (a few dozen bytes,
// no text: records are read back by offset when shown), follows files that
// are still being written, and serves a page (embedded, no external
// references) and a JSON API over it: runs, a jobs table filtered, sorted
// and paged on the server, the reasons jobs did not pass grouped, one
// job's record, and one job in two runs side by side. It answers only on
// the address it is given (loopback by default) and only to requests that
// name that address as their Host (DNS rebinding) and come from no other
// Origin; every byte of a record reaches the page as text.
package view

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agenteval/agenteval/redact"
)

//go:embed assets
var assets embed.FS

// Options configure a Server.
type Options struct {
	// Paths are results files and folders (every results.jsonl under a
	// folder is read, now and as the folder gains them).
	Paths []string
	// Redactor masks secrets in everything read (nil masks nothing).
	Redactor *redact.Redactor
	// Poll is how often files are checked for new records (default 500 ms).
	Poll time.Duration
}

// Server serves the viewer over the runs it found.
type Server struct {
	opts   Options
	mu     sync.RWMutex
	runs   []*run
	byPath map[string]bool
	// host is the Host requests must name (set by Listen).
	hosts []string
	// token is what a request that writes (a label) must carry.
	token string
}

// New indexes the results under opts.Paths. It fails when a path does not
// exist or holds no results file.
func New(opts Options) (*Server, error) {
	if opts.Poll <= 0 {
		opts.Poll = 500 * time.Millisecond
	}
	s := &Server{opts: opts, byPath: map[string]bool{}, token: newToken()}
	for _, p := range opts.Paths {
		if _, err := os.Stat(p); err != nil {
			return nil, err
		}
	}
	if err := s.discover(); err != nil {
		s.Close()
		return nil, err
	}
	if len(s.runs) == 0 {
		return nil, fmt.Errorf("no results file (results.jsonl) under %s", strings.Join(opts.Paths, ", "))
	}
	for _, r := range s.runs {
		// The first page's order and filters, ready before the first request.
		r.mu.RLock()
		r.order("", false)
		r.facetsCached()
		// The index saved beside each file read further than it covers,
		// for the next time (best effort: a folder may be read-only).
		for fi, rf := range r.files {
			if rf.indexed > rf.saved && r.saveIndex(fi) == nil {
				rf.saved = rf.indexed
			}
		}
		r.mu.RUnlock()
	}
	return s, nil
}

// Close closes every file the server holds.
func (s *Server) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range s.runs {
		r.close()
	}
	s.runs = nil
}

// discover finds results files not seen yet and indexes what they hold.
func (s *Server) discover() error {
	var found []string
	for _, p := range s.opts.Paths {
		st, err := os.Stat(p)
		if err != nil {
			return fmt.Errorf("view: %w", err)
		}
		if !st.IsDir() {
			found = append(found, p)
			continue
		}
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil // an unreadable folder is not the viewer's to report
			}
			if !d.IsDir() && d.Name() == "results.jsonl" {
				found = append(found, path)
			}
			if d.IsDir() && d.Name() == "work" && path != p {
				return filepath.SkipDir // run directories, not results
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("view: %w", err)
		}
	}
	for _, path := range found {
		s.mu.RLock()
		seen := s.byPath[path]
		s.mu.RUnlock()
		if seen {
			continue
		}
		rf, err := openFile(path, s.opts.Redactor)
		if err != nil {
			continue // not a results file, or its plan is not written yet: looked at again next time
		}
		s.mu.Lock()
		s.byPath[path] = true
		var r *run
		for _, x := range s.runs {
			if x.id == rf.plan.RunID || x.takesShard(rf) {
				r = x
				break
			}
		}
		if r == nil {
			r = newRun(rf.plan.RunID, s.opts.Redactor, rf.plan.Started)
			s.runs = append(s.runs, r)
		}
		r.mu.Lock()
		r.files = append(r.files, rf)
		r.name = runName(r.files)
		if rf.plan.Started.Before(r.started) {
			r.started = rf.plan.Started
		}
		err = r.loadLabels()
		r.loadIndex(len(r.files)-1, rf)
		r.mu.Unlock()
		s.mu.Unlock()
		if err != nil {
			return fmt.Errorf("view: %w", err)
		}
	}
	s.mu.RLock()
	runs := slices.Clone(s.runs)
	s.mu.RUnlock()
	for _, r := range runs {
		if err := r.grow(context.Background()); err != nil {
			return err
		}
	}
	return nil
}

// takesShard says whether rf is another shard of the run (r.mu free): a
// shard of the same run (its plan the same but for run id, shard and
// start) that the run does not hold yet.
func (r *run) takesShard(rf *runFile) bool {
	if rf.shardOf == "" {
		return false
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	same := false
	for _, f := range r.files {
		if f.shardOf != rf.shardOf || f.plan.Shard == rf.plan.Shard {
			return false
		}
		same = true
	}
	return same
}

// runName is the folder a run's files share.
func runName(files []*runFile) string {
	dir := filepath.Dir(files[0].path)
	for _, f := range files[1:] {
		for !strings.HasPrefix(filepath.Dir(f.path)+string(filepath.Separator), dir+string(filepath.Separator)) && dir != filepath.Dir(dir) {
			dir = filepath.Dir(dir)
		}
	}
	return dir
}

// Serve serves on l until ctx ends, then shuts down gracefully. The Host
// requests must name is l's address (and, for a loopback address,
// localhost with its port).
func (s *Server) Serve(ctx context.Context, l net.Listener) error {
	addr := l.Addr().String()
	s.hosts = []string{addr}
	if host, port, err := net.SplitHostPort(addr); err == nil {
		if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
			s.hosts = append(s.hosts, "localhost:"+port, "127.0.0.1:"+port, "[::1]:"+port)
		}
	}
	srv := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second}
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(s.opts.Poll)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 500*time.Millisecond)
				_ = srv.Shutdown(sctx)
				cancel()
				return
			case <-t.C:
				_ = s.discover() // a file that went away keeps what was read of it
			}
		}
	}()
	err := srv.Serve(l)
	<-done
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// Handler is the viewer's HTTP handler: the page and its API.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	static, _ := fs.Sub(assets, "assets")
	mux.Handle("GET /", http.FileServerFS(static))
	mux.HandleFunc("GET /api/runs", s.apiRuns)
	mux.HandleFunc("GET /api/jobs", s.apiJobs)
	mux.HandleFunc("GET /api/groups", s.apiGroups)
	mux.HandleFunc("GET /api/job", s.apiJob)
	mux.HandleFunc("GET /api/compare", s.apiCompare)
	mux.HandleFunc("GET /api/session", s.apiSession)
	mux.HandleFunc("GET /api/side", s.apiSide)
	mux.HandleFunc("POST /api/label", s.apiLabel)
	return s.guard(mux)
}

// guard answers only GET and HEAD requests naming the server's own Host and
// coming from no other Origin (a page elsewhere, or a DNS name rebound to
// this address, gets 403), and sets headers that keep the page to itself.
func (s *Server) guard(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if len(s.hosts) > 0 && !slices.Contains(s.hosts, req.Host) {
			http.Error(w, "agenteval view: foreign Host "+strconv.Quote(req.Host), http.StatusForbidden)
			return
		}
		if o := req.Header.Get("Origin"); o != "" && !slices.ContainsFunc(s.hosts, func(h string) bool { return o == "http://"+h }) {
			http.Error(w, "agenteval view: foreign Origin", http.StatusForbidden)
			return
		}
		if req.Method != http.MethodGet && req.Method != http.MethodHead && (req.Method != http.MethodPost || req.URL.Path != "/api/label") {
			http.Error(w, "agenteval view: read only but for POST /api/label", http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Referrer-Policy", "no-referrer")
		h.ServeHTTP(w, req)
	})
}

func (s *Server) runByID(id string) *run {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, r := range s.runs {
		if r.id == id {
			return r
		}
	}
	return nil
}

func (s *Server) apiRuns(w http.ResponseWriter, _ *http.Request) {
	s.mu.RLock()
	runs := slices.Clone(s.runs)
	s.mu.RUnlock()
	out := make([]summary, len(runs))
	for i, r := range runs {
		out[i] = r.summary()
	}
	slices.SortStableFunc(out, func(a, b summary) int { return b.Started.Compare(a.Started) })
	writeJSON(w, out)
}

// runArg is the run a request names (?run=), or the only one.
func (s *Server) runArg(w http.ResponseWriter, req *http.Request, name string) *run {
	id := req.URL.Query().Get(name)
	r := s.runByID(id)
	if r == nil {
		s.mu.RLock()
		if id == "" && len(s.runs) == 1 {
			r = s.runs[0]
		}
		s.mu.RUnlock()
	}
	if r == nil {
		http.Error(w, fmt.Sprintf("no run %q", id), http.StatusNotFound)
	}
	return r
}

func (s *Server) apiJobs(w http.ResponseWriter, req *http.Request) {
	r := s.runArg(w, req, "run")
	if r == nil {
		return
	}
	v := req.URL.Query()
	q := query{Status: v.Get("status"), Scenario: v.Get("scenario"), Variant: v.Get("variant"), Why: v.Get("why"),
		Params: v["param"], Eval: v.Get("eval"), Failing: v.Get("failing"), Review: v.Get("review"),
		Text: v.Get("q"), Sort: v.Get("sort"), Desc: v.Get("desc") == "1", Limit: 50}
	q.Offset, _ = strconv.Atoi(v.Get("offset"))
	if n, err := strconv.Atoi(v.Get("limit")); err == nil && n > 0 {
		q.Limit = min(n, 500)
	}
	q.Offset = max(q.Offset, 0)
	p, err := r.query(q)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	writeJSON(w, p)
}

func (s *Server) apiGroups(w http.ResponseWriter, req *http.Request) {
	r := s.runArg(w, req, "run")
	if r == nil {
		return
	}
	gs, err := r.groups(100)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	writeJSON(w, gs)
}

func indexArg(req *http.Request) int64 {
	n, err := strconv.ParseInt(req.URL.Query().Get("index"), 10, 64)
	if err != nil {
		return -1
	}
	return n
}

func (s *Server) apiJob(w http.ResponseWriter, req *http.Request) {
	r := s.runArg(w, req, "run")
	if r == nil {
		return
	}
	id := req.URL.Query().Get("id")
	j, err := r.job(id, indexArg(req))
	switch {
	case err != nil:
		http.Error(w, err.Error(), http.StatusInternalServerError)
	case j == nil:
		http.Error(w, fmt.Sprintf("run %s has no job %q", r.id, id), http.StatusNotFound)
	default:
		writeJSON(w, r.reviewed(j))
	}
}

// apiCompare answers the same job id in two runs (either may lack it).
func (s *Server) apiCompare(w http.ResponseWriter, req *http.Request) {
	a, b := s.runArg(w, req, "a"), (*run)(nil)
	if a == nil {
		return
	}
	if b = s.runArg(w, req, "b"); b == nil {
		return
	}
	id := req.URL.Query().Get("id")
	ja, err := a.job(id, indexArg(req))
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	jb, err := b.job(id, indexArg(req))
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	writeJSON(w, map[string]any{"id": id, "a": a.reviewed(ja), "b": b.reviewed(jb), "run_a": a.id, "run_b": b.id})
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	enc := json.NewEncoder(w)
	if err := enc.Encode(v); err != nil {
		_, _ = io.WriteString(w, "\n")
	}
}
