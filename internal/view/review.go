package view

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"time"

	"github.com/agenteval/agenteval/internal/labels"
	"github.com/agenteval/agenteval/results"
)

// tokenHeader carries the server's token on the one request that writes
// (a label): a page elsewhere cannot read the token (no CORS), and a
// custom header makes a browser ask before sending it cross-origin.
const tokenHeader = "X-Agenteval-Token"

// newToken is a random token for one server.
func newToken() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// loadLabels reads the labels beside each of the run's files (r.mu held).
func (r *run) loadLabels() error {
	r.labels = map[string]labels.Label{}
	seen := map[string]bool{}
	for _, f := range r.files {
		p := labels.Beside(f.path)
		if seen[p] {
			continue
		}
		seen[p] = true
		ls, err := labels.Read(p)
		if err != nil {
			return err
		}
		for id, l := range ls {
			r.labels[id] = l
		}
	}
	return nil
}

// label is the job's review, if any (r.mu read-held).
func (r *run) label(id string) *labels.Label {
	if l, ok := r.labels[id]; ok {
		return &l
	}
	return nil
}

// reviewedJob is a job's record with the person's review of it, if any.
type reviewedJob struct {
	*results.Job
	Review *labels.Label `json:"review,omitempty"`
}

// reviewed is j with its review (nil: nil).
func (r *run) reviewed(j *results.Job) any {
	if j == nil {
		return nil
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	return reviewedJob{Job: j, Review: r.label(j.ID)}
}

// reviewRequest is what the page posts to label a job.
type reviewRequest struct {
	Run     string `json:"run"`
	ID      string `json:"id"`
	Index   int64  `json:"index"`
	Verdict string `json:"verdict"`
	Note    string `json:"note"`
}

// apiSession gives the page the token its label requests carry.
func (s *Server) apiSession(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, map[string]string{"token": s.token})
}

// apiLabel records a person's review of a job in labels.jsonl beside the
// results file that holds its record (never in the results file). The
// guard has checked Host and Origin; this checks that the request comes
// from the page itself (same-origin, the token, JSON).
func (s *Server) apiLabel(w http.ResponseWriter, req *http.Request) {
	if o := req.Header.Get("Origin"); o == "" {
		http.Error(w, "agenteval view: a label needs the page's Origin", http.StatusForbidden)
		return
	}
	if site := req.Header.Get("Sec-Fetch-Site"); site != "" && site != "same-origin" {
		http.Error(w, "agenteval view: a label comes only from the viewer's own page", http.StatusForbidden)
		return
	}
	if subtle.ConstantTimeCompare([]byte(req.Header.Get(tokenHeader)), []byte(s.token)) != 1 {
		http.Error(w, "agenteval view: missing or wrong "+tokenHeader, http.StatusForbidden)
		return
	}
	if mt, _, _ := mime.ParseMediaType(req.Header.Get("Content-Type")); mt != "application/json" {
		http.Error(w, "agenteval view: a label is application/json", http.StatusUnsupportedMediaType)
		return
	}
	var rr reviewRequest
	dec := json.NewDecoder(http.MaxBytesReader(w, req.Body, 2*labels.MaxNote+4096))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rr); err != nil {
		http.Error(w, "agenteval view: label: "+err.Error(), http.StatusBadRequest)
		return
	}
	r := s.runByID(rr.Run)
	if r == nil {
		http.Error(w, fmt.Sprintf("agenteval view: no run %q", rr.Run), http.StatusNotFound)
		return
	}
	l := labels.Label{ID: rr.ID, Verdict: rr.Verdict, Note: rr.Note, RunID: r.id, At: time.Now().UTC()}
	if err := l.Check(); err != nil {
		http.Error(w, "agenteval view: label: "+err.Error(), http.StatusBadRequest)
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	e := r.locate(rr.ID, rr.Index)
	if e == nil {
		http.Error(w, fmt.Sprintf("agenteval view: run %s has no job %q", r.id, rr.ID), http.StatusNotFound)
		return
	}
	l.RunID = r.files[e.file].plan.RunID // a shard merged into the run keeps its own id
	if err := labels.Append(labels.Beside(r.files[e.file].path), l); err != nil {
		http.Error(w, "agenteval view: "+err.Error(), http.StatusInternalServerError)
		return
	}
	if l.Verdict == labels.Clear {
		delete(r.labels, l.ID)
	} else {
		r.labels[l.ID] = l
	}
	writeJSON(w, l)
}
