package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
)

// Recorded wraps a model so that every answer is stored in cache and an
// identical request (same model name, messages, settings, tools) is answered
// from it without a call. Filled once against a live endpoint, a [NewDirCache] cache
// replays a run offline: simulated users and model-backed agents become as
// repeatable as the judge. With Replay set, a request that is not in the
// cache fails instead of reaching the model, so CI proves it is offline.
//
// Repeated identical requests get the same answer; a caller that wants
// independent samples varies the request (a seed, the turn).
type Recorded struct {
	// Model answers what the cache does not hold.
	Model Model
	// Name names Model in cache keys (Namer's name when empty).
	Name string
	// Cache stores the answers; required.
	Cache Cache
	// Replay refuses requests the cache does not hold.
	Replay bool
	once   sync.Once
	name   string
}

// ErrNotRecorded is returned in replay mode for a request with no recording.
var ErrNotRecorded = fmt.Errorf("llm: request not recorded (replay mode)")

// Complete answers from the cache or, outside replay mode, from the model.
func (r *Recorded) Complete(ctx context.Context, req Request) (Response, error) {
	r.once.Do(func() {
		if r.name = r.Name; r.name == "" {
			r.name = nameOf(r.Model)
		}
	})
	if r.Cache == nil {
		return Response{}, fmt.Errorf("llm: Recorded needs a Cache")
	}
	key := CacheKey("recorded:"+r.name, req, 0)
	if b, ok, err := r.Cache.Get(ctx, key); err == nil && ok {
		var resp Response
		if json.Unmarshal(b, &resp) == nil {
			return resp, nil
		}
	}
	if r.Replay {
		return Response{}, ErrNotRecorded
	}
	if r.Model == nil {
		return Response{}, fmt.Errorf("llm: Recorded has no Model")
	}
	resp, err := r.Model.Complete(ctx, req)
	if err != nil {
		return resp, err
	}
	if b, err := json.Marshal(resp); err == nil {
		_ = r.Cache.Put(ctx, key, b) // a failed write costs a call next time, nothing else
	}
	return resp, nil
}
