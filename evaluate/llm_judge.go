package evaluate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/agenteval/agenteval/internal/evalparams"
	"github.com/agenteval/agenteval/internal/expect"
	"github.com/agenteval/agenteval/judge"
	"github.com/agenteval/agenteval/results"
)

// llmJudgeKind returns the llm_judge evaluation type.
//
// The evaluation asks Env.Judge (package judge) the evaluation's prompt about the
// step's evidence (see [Input.Evidence], plus the names of up to 100 files
// in the run's directory when it has one) and passes when the judge's
// verdict passes under expected: yes/no, a score threshold such as "0.8+",
// "<0.3" or "0.6-0.9", or an outcome in words (read as the judge reads it).
// The score is the verdict's score; Details carry the reasoning, each
// capability's finding, the samples and the model.
//
// Without a judge (Env.Judge nil) it cannot judge and returns an error
// saying that no judge model is configured; a failed model call is an
// error too. Neither is a verdict about the agent. expected, capabilities,
// temperature and json_schema are checked when the scenario is compiled.
func llmJudgeKind() *Kind {
	return NewKind("llm_judge", "A model judges the step against a question, an expected answer and optional capabilities.", newLLMJudge)
}

// llmJudge is the evaluator of llmJudgeKind; its semantics are documented there.
type llmJudge struct {
	in judge.Input
}

func newLLMJudge(p *evalparams.LLMJudge) (Evaluator, error) {
	if strings.TrimSpace(p.Prompt) == "" {
		return nil, errors.New("prompt is empty")
	}
	if _, err := expect.Parse(p.Expected); err != nil {
		return nil, err
	}
	if p.Capabilities != nil && len(p.Capabilities) == 0 {
		return nil, errors.New("capabilities is empty; leave it out or list at least one")
	}
	for i, c := range p.Capabilities {
		if strings.TrimSpace(c) == "" {
			return nil, fmt.Errorf("capabilities[%d] is empty", i)
		}
	}
	if t := p.Temperature; t != nil && (*t < 0 || *t > 2) {
		return nil, fmt.Errorf("temperature %v is outside 0..2", *t)
	}
	if p.Samples < 0 {
		return nil, fmt.Errorf("samples %d must be at least 1", p.Samples)
	}
	in := judge.Input{
		Prompt:       p.Prompt,
		Expected:     p.Expected,
		Capabilities: p.Capabilities,
		ModelType:    p.ModelType,
		Temperature:  p.Temperature,
		Samples:      p.Samples,
	}
	if p.JSONSchema != nil {
		b, err := json.Marshal(p.JSONSchema)
		if err != nil {
			return nil, fmt.Errorf("json_schema: %w", err)
		}
		in.JSONSchema = b
	}
	return &llmJudge{in: in}, nil
}

// Needs reports that the check asks the judge.
func (e *llmJudge) Needs() Needs { return Needs{Judge: true} }

// Evaluate judges in; see the type's documentation.
func (e *llmJudge) Evaluate(ctx context.Context, in Input) (results.Evaluation, error) {
	if in.Env == nil || in.Env.Judge == nil {
		return results.Evaluation{}, errors.New("no judge model is configured; llm_judge needs one (configure a judge model for the run)")
	}
	q := e.in
	q.Evidence = in.Evidence()
	if files := listRunFiles(in.Trace.Dir, maxListedFiles); files != "" {
		q.Evidence += "\n## Files in the run's directory\n" + files
	}
	v, err := in.Env.Judge.Evaluate(ctx, q)
	if err != nil {
		return results.Evaluation{}, judgeError(err)
	}
	r := results.Evaluation{Passed: v.Pass, Score: v.Score, Details: map[string]any{
		"expected":  e.in.Expected,
		"reasoning": v.Reasoning,
		"samples":   v.Samples,
		"passes":    v.Passes,
		"model":     v.Model,
		"cached":    v.Cached,
	}, Usage: v.Usage}
	if len(v.Capabilities) > 0 {
		r.Details["capabilities"] = v.Capabilities
	}
	verdict := "FAIL"
	if v.Pass {
		verdict = "PASS"
	}
	r.Message = fmt.Sprintf("judge: %s (score %.2f, expected %s)", verdict, v.Score, e.in.Expected)
	var missed []string
	for _, c := range v.Capabilities {
		if !c.Achieved {
			missed = append(missed, c.Capability)
		}
	}
	if len(missed) > 0 {
		r.Message += "; not achieved: " + strings.Join(missed, ", ")
	}
	if v.Reasoning != "" {
		r.Message += "; " + excerpt(v.Reasoning)
	}
	return r, nil
}

// maxListedFiles bounds the file list shown to the judge: enough to see
// what the agent produced, not so much that a vendored tree floods the
// prompt.
const maxListedFiles = 100

// listRunFiles lists the regular files below dir, one relative slash path
// a line, at most limit of them (then "…"). Symbolic links are not
// followed. It returns "" when dir is "" or unreadable: the list helps the
// judge but is not worth failing the evaluation for.
func listRunFiles(dir string, limit int) string {
	if dir == "" {
		return ""
	}
	var b strings.Builder
	n := 0
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil
		}
		if n == limit {
			b.WriteString("…\n")
			return filepath.SkipAll
		}
		rel, rerr := filepath.Rel(dir, p)
		if rerr != nil {
			return nil
		}
		b.WriteString(filepath.ToSlash(rel))
		b.WriteByte('\n')
		n++
		return nil
	})
	return b.String()
}

// judgeError says that an error came from the judge, once: the judge's
// own errors already start with "judge: ".
func judgeError(err error) error {
	if strings.HasPrefix(err.Error(), "judge: ") {
		return err
	}
	return fmt.Errorf("judge: %w", err)
}
