// Package plugins is a host program's own plugins, one of each kind a
// scenario file names: an evaluation type (word_limit), a judgment strategy
// (at_least_two), a checkpoint condition type (title_mentions) and an agent
// type (shout). Registered once on an agenteval.Kit, they are accepted by
// its loader, listed in its JSON Schema and by `agenteval types`, and run
// (host.scenario.yaml uses all four).
package plugins

import (
	"context"
	_ "embed"
	"fmt"
	"strings"

	"github.com/agenteval/agenteval"
	"github.com/agenteval/agenteval/checkpoint"
	"github.com/agenteval/agenteval/evaluate"
	"github.com/agenteval/agenteval/judge"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/runner"
	"github.com/agenteval/agenteval/scenario"
)

// Scenario is host.scenario.yaml: a scenario that uses the four plugins
// (its checkpoint reads issue 1 of acme/widgets, whose title mentions a crash).
//
//go:embed host.scenario.yaml
var Scenario []byte

// Register registers the four plugins on kit.
func Register(kit *agenteval.Kit) error {
	if err := kit.Evaluations.Register(WordLimit()); err != nil {
		return err
	}
	if err := kit.Strategies.Register(AtLeastTwo()); err != nil {
		return err
	}
	if err := kit.Conditions.Register(TitleMentions()); err != nil {
		return err
	}
	return kit.Agents.Register(Shout())
}

// WordLimitParams are word_limit's fields.
type WordLimitParams struct {
	// Max is the most words the reply may have.
	Max int `json:"max" jsonschema:"minimum=1"`
}

// WordLimit is the word_limit evaluation type: the reply has at most max words.
func WordLimit() *evaluate.Kind {
	return evaluate.NewKind("word_limit", "The reply has at most max words.", func(p *WordLimitParams) (evaluate.Evaluator, error) {
		if p.Max < 1 {
			return nil, fmt.Errorf("max %d must be at least 1", p.Max)
		}
		return evaluate.EvaluatorFunc(func(_ context.Context, in evaluate.Input) (results.Evaluation, error) {
			what, text := in.Text()
			n := len(strings.Fields(text))
			r := results.Evaluation{Passed: n <= p.Max, Message: fmt.Sprintf("%s has %d words (at most %d)", what, n, p.Max)}
			if r.Passed {
				r.Score = 1
			}
			return r, nil
		}), nil
	})
}

// AtLeastTwo is the at_least_two judgment strategy: two passed outcomes
// are enough, whatever the others.
func AtLeastTwo() *judge.Strategy {
	return &judge.Strategy{Name: "at_least_two", Doc: "Passes when at least two evaluations or checkpoints pass.",
		Decide: func(outcomes []judge.Outcome, _ judge.Options) judge.Decision {
			n := 0
			for _, o := range outcomes {
				if o.Passed {
					n++
				}
			}
			return judge.Decision{Passed: n >= 2, Score: float64(n) / float64(len(outcomes)),
				Reason: fmt.Sprintf("%d of %d passed; at_least_two needs two", n, len(outcomes))}
		}}
}

// TitleMentions is the title_mentions condition type: the task's result
// has a title containing value, in any case.
func TitleMentions() *checkpoint.ConditionType {
	return &checkpoint.ConditionType{Name: "title_mentions", Doc: "Holds when the result's title contains value, in any case.",
		Needs: []string{"value"}, Value: "string",
		Check: func(_ context.Context, data any, c scenario.Condition) (bool, string, error) {
			m, _ := data.(map[string]any)
			title, _ := m["title"].(string)
			want, _ := c.Value.(string)
			return strings.Contains(strings.ToLower(title), strings.ToLower(want)), fmt.Sprintf("title is %q", title), nil
		},
		Describe: func(c scenario.Condition) string { return fmt.Sprintf("title mentions %v", c.Value) },
	}
}

// Shout is the shout agent type: it answers every message in capitals.
func Shout() *runner.AgentType {
	return &runner.AgentType{Name: "shout", Doc: "replies with the message in capitals",
		New: func(string, runner.AgentOptions) (runner.Agent, error) {
			return runner.AgentFunc(func(_ context.Context, _ runner.SessionConfig, msg string) (runner.Reply, error) {
				return runner.Reply{Text: strings.ToUpper(msg)}, nil
			}), nil
		}}
}
