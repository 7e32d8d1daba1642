package scenario

import (
	"math"
	"path"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/agenteval/agenteval/internal/confine"
	"github.com/agenteval/agenteval/internal/evalparams"
	"github.com/agenteval/agenteval/internal/textdist"
)

// checkScenario applies the rules a schema cannot express. Paths point into
// the file as written: for a GitHub scenario the prompt step's evaluations
// are at evaluations[i] and checkpoints at assertions.checkpoints[i].
func (l *Loader) checkScenario(f *File, s *Scenario, github bool) {
	stepPath := func(i int) Path { return Path{}.Key("run").Index(i) }
	evalPath := func(p Path) Path {
		if github && len(p) >= 4 {
			return Path{}.Key("evaluations").Index(p[3].Index)
		}
		return p
	}
	checks := 0
	for i, step := range s.Run {
		if !github && step.Input == "" && step.Code == "" && step.Conversation == nil {
			f.addf(stepPath(i), Error, "step", "a step needs input, code or conversation")
		}
		if step.Code != "" && step.Input != "" && step.Conversation == nil {
			f.addf(stepPath(i).Key("code"), Warning, "step", "a step with both input and code runs the input; put the code in its own step")
		}
		checks += len(step.Evaluations)
		if c := step.Conversation; c != nil {
			checks += len(c.TurnEvaluations) + len(c.FinalEvaluations)
			cp := stepPath(i).Key("conversation")
			for j, t := range c.TerminationConditions {
				tp := cp.Key("termination_conditions").Index(j)
				if term := f.gen.vocab.terms[fieldTermination][t.Type]; term != nil {
					given := map[string]bool{"keywords": len(t.Keywords) > 0, "llm_judge": t.LLMJudge != nil, "description": t.Description != ""}
					if missing := unmet(term.Needs, given); missing != "" {
						f.addf(tp, Error, "termination", "%s needs %s to decide when it holds", t.Type, missing)
					}
				}
			}
		}
	}
	s.Evaluations(func(p Path, e *Evaluation) {
		fp := evalPath(p)
		inConversation := len(p) > 3 && p[2].Key == "conversation"
		if t := f.gen.vocab.evals[e.Type]; t != nil && t.Conversation && !inConversation && s.Run[p[1].Index].Conversation == nil {
			f.addf(fp.Key("type"), Error, "needs-conversation", "%s evaluates a conversation, but this step has none", e.Type)
		}
		l.checkParams(f, fp, e)
	})
	seen := map[string]int{}
	cpBase := Path{}.Key("checkpoints")
	if github {
		cpBase = Path{}.Key("assertions").Key("checkpoints")
	}
	for i, c := range s.Checkpoints {
		p := cpBase.Index(i)
		if prev, dup := seen[c.ID]; dup {
			f.addf(p.Key("id"), Error, "duplicate-id", "checkpoint id %q is already used by checkpoint %d", c.ID, prev)
		}
		seen[c.ID] = i
		l.checkScorer(f, p.Key("condition"), c.Condition)
	}
	checks += len(s.Checkpoints)
	checkWeights(f, s)
	if es := s.Environment.Setup; es != nil && es.WorkingDirectory != "" {
		if err := confine.Path(es.WorkingDirectory); err != nil {
			f.addf(Path{}.Key("environment").Key("setup").Key("workingDirectory"), Error, "path", "%v", err)
		}
	}
	if s.Setup != nil {
		sp := Path{}.Key("setup")
		checkVirtualFS(f, sp.Key("virtual_fs"), s.Setup.VirtualFS)
		for i, m := range s.Setup.Mocks {
			mp := sp.Key("mocks").Index(i)
			if m.Method == "" {
				continue // the schema has reported the missing method
			}
			if m.Service == "" {
				f.addf(mp, Warning, "mock", "mock for %q names no service, so it matches the method on any service", m.Method)
			}
			if m.Response == nil && m.ResponseFn == "" && m.Error == nil {
				f.addf(mp, Warning, "mock", "mock for %q has no response, responseFn or error; it answers null", m.Method)
			}
			if m.ResponseFn != "" && m.Response != nil {
				f.addf(mp.Key("responseFn"), Warning, "mock", "responseFn takes precedence; response is ignored")
			}
		}
	}
	names := map[string]bool{}
	for i, p := range s.Plugins {
		if names[p.Name] {
			f.addf(Path{}.Key("plugins").Index(i), Error, "duplicate-plugin", "plugin %q is listed twice", p.Name)
		}
		names[p.Name] = true
	}
	if checks == 0 {
		f.addf(nil, Warning, "no-checks", "the scenario checks nothing: no evaluations and no checkpoints, so no run can pass")
	}
}

// checkWeights checks judgment.weights (see Judgment.Weights): each key
// names an evaluation description or type or a checkpoint id, each weight
// is a number ≥ 0, and a weighted judgment has something that weighs more
// than 0, for otherwise no run of it could pass or fail on its merits.
func checkWeights(f *File, s *Scenario) {
	j := &s.Judgment
	jp := Path{}.Key("judgment")
	wp := jp.Key("weights")
	if len(j.Weights) > 0 {
		var names []string
		s.Evaluations(func(_ Path, e *Evaluation) {
			if e.Description != "" {
				names = append(names, e.Description)
			}
			names = append(names, e.Type)
		})
		for _, c := range s.Checkpoints {
			names = append(names, c.ID)
		}
		keys := make([]string, 0, len(j.Weights))
		for k := range j.Weights {
			keys = append(keys, k)
		}
		slices.Sort(keys) // diagnostics in a stable order
		for _, k := range keys {
			w := j.Weights[k]
			if w < 0 || math.IsNaN(w) || math.IsInf(w, 0) {
				f.addf(wp.Key(k), Error, "weight", "weight %v of %q must be a number ≥ 0", w, k)
			}
			if !slices.Contains(names, k) {
				d := f.addf(wp.Key(k), Error, "weight", "%q names no evaluation description, evaluation type or checkpoint id of this scenario, so its weight counts nothing", k)
				d.Suggestion = textdist.Suggest(k, names)
			}
		}
		if j.Strategy != "weighted" {
			f.addf(wp, Warning, "weight", "weights count only under the weighted strategy; %s ignores them", j.Strategy)
		}
	}
	if j.Strategy != "weighted" {
		return
	}
	total, n, negative := 0.0, 0, false
	add := func(w *float64) {
		n++
		switch {
		case w == nil:
			total++
		case *w < 0:
			negative = true
		default:
			total += *w
		}
	}
	s.Evaluations(func(_ Path, e *Evaluation) { add(j.EvaluationWeight(e)) })
	for i := range s.Checkpoints {
		add(j.CheckpointWeight(&s.Checkpoints[i]))
	}
	if total > 0 || negative { // a negative weight has its own error
		return
	}
	at := jp.Key("strategy")
	if len(j.Weights) > 0 {
		at = wp
	}
	if n == 0 {
		f.addf(at, Error, "weight", "a weighted judgment needs weight to decide on, but the scenario has no evaluations or checkpoints")
		return
	}
	f.addf(at, Error, "weight", "a weighted judgment needs weight to decide on, but all %d evaluations and checkpoints weigh 0, so no run could pass or fail on its merits; give at least one a weight above 0", n)
}

// checkVirtualFS checks that every virtual_fs key names a file of its own
// inside the run's directory: not the directory itself, not a file that
// another key writes (a and ./a), not a file another key needs as a
// directory (a and a/b).
// checkScorer reports a condition at p whose type dispatches to a custom
// scorer (it needs one) that the registries do not hold.
func (l *Loader) checkScorer(f *File, p Path, c Condition) {
	t := f.gen.vocab.terms[fieldCondition][c.Type]
	if t == nil || !slices.Contains(t.Needs, "scorer") || c.Scorer == "" {
		return
	}
	switch {
	case f.gen.vocab.terms[fieldScorer][c.Scorer] != nil:
	case l.opts.ScorersElsewhere:
		f.addf(p.Key("scorer"), Warning, "custom-scorer", "custom scorer %q must be registered by the program that runs this scenario", c.Scorer)
	default:
		d := f.addf(p.Key("scorer"), Error, "custom-scorer", "no custom scorer %q is registered", c.Scorer)
		d.Suggestion = textdist.Suggest(c.Scorer, f.gen.vocab.names(fieldScorer))
	}
}

// unmet returns the first of needs that given does not meet, as "a or b"
// for an alternative "a|b"; "" when all are met.
func unmet(needs []string, given map[string]bool) string {
	for _, n := range needs {
		alts := strings.Split(n, "|")
		if !slices.ContainsFunc(alts, func(a string) bool { return given[a] }) {
			return strings.Join(alts, " or ")
		}
	}
	return ""
}

func checkVirtualFS(f *File, p Path, vfs map[string]string) {
	names := make([]string, 0, len(vfs))
	for name := range vfs {
		names = append(names, name)
	}
	slices.Sort(names)
	files := make(map[string]string, len(names)) // cleaned path -> key
	var kept []string
	for _, name := range names {
		if err := confine.Path(name); err != nil {
			f.addKeyf(p.Key(name), Error, "path", "%v", err)
			continue
		}
		clean := path.Clean(strings.ReplaceAll(name, `\`, "/"))
		if clean == "." {
			f.addKeyf(p.Key(name), Error, "path", "path %q names the run's directory itself, not a file", name)
			continue
		}
		if other, dup := files[clean]; dup {
			f.addKeyf(p.Key(name), Error, "path", "path %q names the same file as %q", name, other)
			continue
		}
		files[clean] = name
		kept = append(kept, clean)
	}
	for _, clean := range kept {
		name := files[clean]
		for dir := path.Dir(clean); dir != "."; dir = path.Dir(dir) {
			if other, ok := files[dir]; ok {
				f.addKeyf(p.Key(name), Error, "path", "path %q needs %q to be a directory, but %q writes it as a file", name, dir, other)
				break
			}
		}
	}
}

// checkParams checks an evaluation's parameters beyond their schema.
func (l *Loader) checkParams(f *File, p Path, e *Evaluation) {
	switch v := e.Params.(type) {
	case *evalparams.RegexMatch:
		if _, err := regexp.Compile(v.Pattern); err != nil {
			f.addf(p.Key("pattern"), Error, "regex", "pattern does not compile: %v", strings.TrimPrefix(err.Error(), "error parsing regexp: "))
		}
	case *evalparams.ExecutionTime:
		if v.MaxDurationMS == nil && v.MinDurationMS == nil && v.TargetDurationMS == nil {
			f.addf(p, Error, "required", "execution_time needs max_duration_ms, min_duration_ms or target_duration_ms")
		}
		if v.MaxDurationMS != nil && v.MinDurationMS != nil && *v.MinDurationMS > *v.MaxDurationMS {
			f.addf(p.Key("min_duration_ms"), Error, "range", "min_duration_ms %v is above max_duration_ms %v", *v.MinDurationMS, *v.MaxDurationMS)
		}
	case *evalparams.ConversationLength:
		if len(v.TargetRange) == 2 && v.TargetRange[0] >= v.TargetRange[1] {
			f.addf(p.Key("target_range"), Error, "range", "target_range [%d, %d] must be [low, high] with low < high", v.TargetRange[0], v.TargetRange[1])
		}
		if v.MinTurns > 0 && v.MaxTurns > 0 && v.MinTurns > v.MaxTurns {
			f.addf(p.Key("min_turns"), Error, "range", "min_turns %d is above max_turns %d", v.MinTurns, v.MaxTurns)
		}
	case *evalparams.FileExists:
		if err := confine.Path(v.Path); err != nil {
			f.addf(p.Key("path"), Error, "path", "%v", err)
		}
	case *evalparams.FileContains:
		if err := confine.Path(v.Path); err != nil {
			f.addf(p.Key("path"), Error, "path", "%v", err)
		}
	}
}

func checkMatrix(f *File) {
	seen := map[string]int{}
	for i, a := range f.Matrix.Axes {
		if prev, dup := seen[a.Parameter]; dup {
			f.addf(Path{}.Key("matrix").Index(i).Key("parameter"), Error, "duplicate-axis", "parameter %q is already swept by axis %d", a.Parameter, prev)
		}
		seen[a.Parameter] = i
	}
}

func checkManifest(f *File) {
	if _, err := time.Parse(time.RFC3339, f.Manifest.CreatedAt); err != nil {
		f.addf(Path{}.Key("createdAt"), Error, "format", "createdAt %q is not an RFC 3339 time such as 2026-01-02T15:04:05Z", f.Manifest.CreatedAt)
	}
	for name, r := range f.Manifest.Fixtures {
		if _, _, ok := ownerRepo(r.Repo); !ok {
			f.addf(Path{}.Key("fixtures").Key(name).Key("repo"), Error, "format", "repo %q is not owner/name", r.Repo)
		}
	}
}
