package runner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/agenteval/agenteval/environment"
	"github.com/agenteval/agenteval/evaluate"
	"github.com/agenteval/agenteval/registry"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/scenario"
)

// Unrunnable says why this configuration cannot run s: each thing a job of
// s needs that is missing here — a provider for its environment, consent
// to run commands, a judge or user simulator model, a fixture manifest, a
// checkpoint executor. Run records such a job incomplete with these
// reasons before starting anything for it (no agent session, no command),
// and runs the other jobs; a CLI can warn about them up front. Nil means
// nothing stands in the way.
func (cfg Config) Unrunnable(s *scenario.Scenario) []string {
	cfg.Registries = cfg.Registries.orDefault()
	c, _ := evaluate.Compile(cfg.Registries.Evaluations, s) // a scenario whose evaluations do not compile fails on its own
	return unrunnable(&cfg, s, c)
}

// unrunnable is the one place that decides what a job cannot do here; c
// may be nil.
func unrunnable(cfg *Config, s *scenario.Scenario, c *evaluate.Compiled) []string {
	var reasons []string
	if _, _, err := cfg.environment(s.Environment.Type); err != nil {
		reasons = append(reasons, err.Error())
	}
	var needs evaluate.Needs
	if c != nil {
		needs = c.Needs()
	}
	if !cfg.AllowCommands {
		var where []string
		for i, st := range s.Run {
			if isCodeStep(&st) {
				where = append(where, fmt.Sprintf("a %s code step at run[%d]", langName(st.Lang), i))
			}
		}
		if needs.Commands {
			where = append(where, checksNeeding(c, s, func(n evaluate.Needs) bool { return n.Commands })...)
		}
		if len(where) > 0 {
			reasons = append(reasons, fmt.Sprintf("it runs commands (%s) and commands are not allowed; pass --allow-commands (Config.AllowCommands) to run them", strings.Join(where, ", ")))
		}
	}
	if cfg.Judge == nil {
		var where []string
		if needs.Judge {
			where = checksNeeding(c, s, func(n evaluate.Needs) bool { return n.Judge })
		}
		for i, st := range s.Run {
			if st.Conversation == nil {
				continue
			}
			for k, t := range st.Conversation.TerminationConditions {
				if t.LLMJudge != nil && len(t.Keywords) == 0 {
					where = append(where, fmt.Sprintf("termination condition %s at run[%d].conversation.termination_conditions[%d]", t.Type, i, k))
				}
			}
		}
		if len(where) > 0 {
			reasons = append(reasons, fmt.Sprintf("it needs a judge model (%s) and none is configured; pass --judge-model (Config.Judge)", strings.Join(where, ", ")))
		}
	}
	if cfg.UserModel == nil {
		for i, st := range s.Run {
			if st.Conversation != nil && st.Conversation.MaxTurns > 1 {
				reasons = append(reasons, fmt.Sprintf("its conversation at run[%d] needs a user simulator model and none is configured; pass --user-model (Config.UserModel)", i))
				break
			}
		}
	}
	if s.Fixture != nil && cfg.Fixtures == nil {
		reasons = append(reasons, fmt.Sprintf("it needs fixture %s and no fixture manifest is configured; pass --manifest (Config.Fixtures)", strings.Join(s.Fixture.Requires, ", ")))
	}
	if fb, ok := cfg.Fixtures.(interface {
		Unrunnable(*scenario.Scenario) []string
	}); ok {
		reasons = append(reasons, fb.Unrunnable(s)...) // a fixture.Binder says what it lacks
	}
	if len(s.Checkpoints) > 0 && cfg.Checkpoints == nil {
		reasons = append(reasons, fmt.Sprintf("it has %d checkpoint(s) and no checkpoint executor is configured; set GITHUB_TOKEN or pass --graphql-url (Config.Checkpoints)", len(s.Checkpoints)))
	}
	return reasons
}

// checksNeeding lists where the evaluations whose needs match are written.
func checksNeeding(c *evaluate.Compiled, s *scenario.Scenario, match func(evaluate.Needs) bool) []string {
	var where []string
	for i := range s.Run {
		for _, scope := range []results.Scope{results.ScopeStep, results.ScopeTurn, results.ScopeFinal} {
			for _, ch := range c.Checks(scope, i) {
				if match(ch.Needs) {
					where = append(where, fmt.Sprintf("%s at %s", ch.Evaluation.Type, ch.Path))
				}
			}
		}
	}
	return where
}

// environment returns the environment that runs type name here and the
// name it is registered under: the scenario's own, else Config.EnvFallback.
func (cfg *Config) environment(name string) (*environment.Type, string, error) {
	env, err := provider(cfg.Registries.Environments, name)
	if err == nil {
		return env, name, nil
	}
	if cfg.EnvFallback == "" || cfg.EnvFallback == name {
		return nil, "", fmt.Errorf("%w; register one with Environments.Register, or pass --env-fallback local (Config.EnvFallback) to run it locally: agenteval never falls back silently", err)
	}
	fb, ferr := provider(cfg.Registries.Environments, cfg.EnvFallback)
	if ferr != nil {
		return nil, "", fmt.Errorf("%w; the fallback: %w", err, ferr)
	}
	return fb, cfg.EnvFallback, nil
}

func isCodeStep(st *scenario.RunStep) bool {
	return st.Code != "" && st.Input == "" && st.Conversation == nil
}

func langName(lang string) string {
	if lang == "" {
		return "sh"
	}
	return lang
}

// provider returns the environment type that runs name, with a clear error
// when it is unknown or has no provider.
func provider(envs *registry.Registry[*environment.Type], name string) (*environment.Type, error) {
	t, ok := envs.Lookup(name)
	if ok && t.Prepare != nil {
		return t, nil
	}
	var provided []string
	for _, e := range envs.All() {
		if e.Prepare != nil {
			provided = append(provided, e.Name)
		}
	}
	slices.Sort(provided)
	if ok {
		return nil, fmt.Errorf("environment type %q has no provider registered (registered: %s)", name, strings.Join(provided, ", "))
	}
	return nil, fmt.Errorf("unknown environment type %q (registered: %s)", name, strings.Join(provided, ", "))
}
