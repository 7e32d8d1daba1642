package judge

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/agenteval/agenteval/llm"
)

// sampleResult is one model answer, read but not yet combined.
type sampleResult struct {
	raw    rawVerdict
	pass   bool
	score  float64
	usage  llm.Usage
	cached bool
	model  string
}

// cacheEntry is what the cache holds for one sample: the model's raw
// answer, so that a better parser applies to old entries too.
type cacheEntry struct {
	Model   string    `json:"model"`
	Content string    `json:"content"`
	Usage   llm.Usage `json:"usage"`
}

// sampleAll runs the samples concurrently: they are independent requests,
// and a judge with k samples should not take k times as long.
func (j *Judge) sampleAll(ctx context.Context, p plan, out []sampleResult) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		wg       sync.WaitGroup
		once     sync.Once
		firstErr error
	)
	for i := range out {
		wg.Go(func() {
			r, err := j.sample(ctx, p, i)
			if err != nil {
				once.Do(func() {
					firstErr = fmt.Errorf("judge: sample %d of %d: %w", i+1, len(out), err)
					cancel()
				})
				return
			}
			out[i] = r
		})
	}
	wg.Wait()
	return firstErr
}

// sample gets answer number index, from the cache or the model.
func (j *Judge) sample(ctx context.Context, p plan, index int) (sampleResult, error) {
	req, exp := p.req, p.exp
	if j.cfg.Seed != nil {
		s := *j.cfg.Seed + int64(index)
		req.Seed = &s
	}
	var key string
	if j.cfg.Cache != nil {
		key = llm.CacheKey(p.name, req, index)
		if b, ok, err := j.cfg.Cache.Get(ctx, key); err == nil && ok {
			var e cacheEntry
			if json.Unmarshal(b, &e) == nil {
				if raw, err := parseRaw(e.Content); err == nil {
					pass, score := samplePass(exp, raw)
					return sampleResult{raw: raw, pass: pass, score: score, cached: true, model: e.Model}, nil
				}
			}
			// A corrupt or unreadable entry is a miss; the fresh answer
			// below overwrites it.
		}
	}
	// Samples run concurrently: a recording keys each by its index.
	resp, err := p.model.Complete(llm.WithSample(ctx, index), req)
	if err != nil {
		return sampleResult{}, err
	}
	content := resp.Content
	if strings.TrimSpace(content) == "" {
		switch {
		case resp.Refusal != "":
			return sampleResult{}, fmt.Errorf("judge: the model refused to judge: %s", resp.Refusal)
		case len(resp.ToolCalls) > 0:
			return sampleResult{}, fmt.Errorf("%w: the model called tools instead of answering", ErrUnparseableVerdict)
		}
	}
	raw, err := parseRaw(content)
	if err != nil {
		if resp.FinishReason == "length" {
			return sampleResult{}, fmt.Errorf("judge: the answer was cut off at the token limit: %w", err)
		}
		return sampleResult{}, fmt.Errorf("judge: %w", err)
	}
	if j.cfg.Cache != nil {
		if b, err := json.Marshal(cacheEntry{Model: resp.Model, Content: content, Usage: resp.Usage}); err == nil {
			// A failed write costs a model call next time, nothing more,
			// so it does not fail an evaluation that has its answer.
			_ = j.cfg.Cache.Put(ctx, key, b)
		}
	}
	pass, score := samplePass(exp, raw)
	return sampleResult{raw: raw, pass: pass, score: score, usage: resp.Usage, model: resp.Model}, nil
}
