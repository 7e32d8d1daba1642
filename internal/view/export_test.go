package view

// FromSaved says, for each results file of each run s holds, whether its
// index was read from the index saved beside it (for tests outside the
// package, which run the pipeline that saves it).
func FromSaved(s *Server) []bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []bool
	for _, r := range s.runs {
		r.mu.RLock()
		for _, f := range r.files {
			out = append(out, f.fromSaved)
		}
		r.mu.RUnlock()
	}
	return out
}

// Counts is each run's recorded, passed and failed jobs, as the viewer
// shows them.
func Counts(s *Server) [][3]int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out [][3]int
	for _, r := range s.runs {
		sum := r.summary()
		out = append(out, [3]int{sum.Recorded, sum.Passed, sum.Failed})
	}
	return out
}
