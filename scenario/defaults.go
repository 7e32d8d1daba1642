package scenario

import (
	"errors"
	"slices"

	"github.com/agenteval/agenteval/internal/evalparams"
	"github.com/agenteval/agenteval/internal/formats"
)

// Documented defaults of the agent scenario format.
const (
	defaultTimeoutPerTurnMS  = 30000
	defaultTotalTimeoutMS    = 300000
	defaultSimulatorModel    = "TEXT_LARGE"
	defaultSimulatorTemp     = 0.7
	defaultSimulatorTokens   = 200
	defaultKnowledgeLevel    = "intermediate"
	defaultTerminationThresh = 0.8
	defaultWeightedThreshold = 0.5
)

// SetDefaults fills every documented default that is absent, so that what
// runs (and what a matrix may vary) is the same whatever the file omitted.
// fileName, when not empty, supplies the ID if the scenario has none.
// Calling it again is harmless.
func (s *Scenario) SetDefaults(fileName string) {
	if s.ID == "" && fileName != "" {
		s.ID = formats.IDFromFileName(fileName)
	}
	if s.Environment.Type == "" {
		s.Environment.Type = "local"
	}
	if s.Judgment.Strategy == "" {
		s.Judgment.Strategy = "all_pass"
	}
	if s.Judgment.Strategy == "weighted" {
		evalparams.SetDefault(&s.Judgment.Threshold, defaultWeightedThreshold)
	}
	for i := range s.Run {
		c := s.Run[i].Conversation
		if c == nil {
			continue
		}
		if c.TimeoutPerTurnMS == 0 {
			c.TimeoutPerTurnMS = defaultTimeoutPerTurnMS
		}
		if c.TotalTimeoutMS == 0 {
			c.TotalTimeoutMS = defaultTotalTimeoutMS
		}
		if c.UserSimulator == nil {
			c.UserSimulator = &UserSimulator{}
		}
		u := c.UserSimulator
		if u.ModelType == "" {
			u.ModelType = defaultSimulatorModel
		}
		evalparams.SetDefault(&u.Temperature, defaultSimulatorTemp)
		if u.MaxTokens == 0 {
			u.MaxTokens = defaultSimulatorTokens
		}
		if u.KnowledgeLevel == "" {
			u.KnowledgeLevel = defaultKnowledgeLevel
		}
		for j := range c.TerminationConditions {
			if t := c.TerminationConditions[j].LLMJudge; t != nil {
				evalparams.SetDefault(&t.Threshold, defaultTerminationThresh)
			}
		}
		if c.DebugOptions == nil {
			c.DebugOptions = &DebugOptions{}
		}
		if c.DebugOptions.ExportFullTranscript == nil {
			t := true
			c.DebugOptions.ExportFullTranscript = &t
		}
	}
}

// Evaluations calls fn for every evaluation of the scenario with its path
// (run[0].conversation.turn_evaluations[1]): step evaluations, then each
// conversation's turn and final evaluations, in file order.
func (s *Scenario) Evaluations(fn func(p Path, e *Evaluation)) {
	run := Path{}.Key("run")
	for i := range s.Run {
		step := &s.Run[i]
		sp := run.Index(i)
		for j := range step.Evaluations {
			fn(sp.Key("evaluations").Index(j), &step.Evaluations[j])
		}
		if c := step.Conversation; c != nil {
			cp := sp.Key("conversation")
			for j := range c.TurnEvaluations {
				fn(cp.Key("turn_evaluations").Index(j), &c.TurnEvaluations[j])
			}
			for j := range c.FinalEvaluations {
				fn(cp.Key("final_evaluations").Index(j), &c.FinalEvaluations[j])
			}
		}
	}
}

func (l *Loader) decodeEvaluations(f *File, s *Scenario, _ Path) {
	s.Evaluations(func(p Path, e *Evaluation) { l.decodeEvaluation(f, e, p) })
}

func (l *Loader) decodeEvaluation(f *File, e *Evaluation, p Path) {
	t := f.gen.vocab.evals[e.Type]
	if t == nil {
		return // the schema check has reported the unknown type with a suggestion
	}
	if err := e.decodeParams(t); err != nil {
		var de *decodeError
		if errors.As(err, &de) {
			f.addf(append(slices.Clip(p), de.path...), Error, "type", "evaluation %q: %s", e.Type, de.msg)
			return
		}
		f.addf(p, Error, "type", "%v", err)
	}
}
