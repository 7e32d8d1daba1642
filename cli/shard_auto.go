package cli

import (
	"fmt"
	"strconv"
	"strings"
)

// shardCountVariable holds the number of shards for `run --shard auto`
// when --shards is not given: engines such as a Kubernetes Indexed Job tell
// each copy its index but not how many copies there are.
const shardCountVariable = "AGENTEVAL_SHARDS"

// shardEngine is a scheduler that starts one copy of a command per shard
// and tells each copy which one it is through its environment.
type shardEngine struct {
	name  string // how messages name the engine
	index string // the variable holding this copy's index
	first int    // the index of the first copy: 0, or 1 where the engine counts from 1
	count string // the variable holding the number of copies; "" when the engine sets none
}

// shardEngines lists the engines `--shard auto` knows, in the order run's
// help names them.
func shardEngines() []shardEngine {
	return []shardEngine{
		{name: "Kubernetes Indexed Job", index: "JOB_COMPLETION_INDEX"},
		{name: "GitLab CI parallel", index: "CI_NODE_INDEX", first: 1, count: "CI_NODE_TOTAL"},
		{name: "CircleCI parallelism", index: "CIRCLE_NODE_INDEX", count: "CIRCLE_NODE_TOTAL"},
		{name: "Buildkite parallelism", index: "BUILDKITE_PARALLEL_JOB", count: "BUILDKITE_PARALLEL_JOB_COUNT"},
		{name: "Cloud Run job", index: "CLOUD_RUN_TASK_INDEX", count: "CLOUD_RUN_TASK_COUNT"},
		{name: "AWS Batch array job", index: "AWS_BATCH_JOB_ARRAY_INDEX"},
	}
}

// autoShard works out which shard this process is from the engine that
// started it: spec is the "i/n" that `--shard i/n` takes (i counts from 1
// whatever the engine counts from) and from says where both numbers came
// from, for the log. shards is --shards (0 when not given); getenv reads
// the environment. Every way the environment can fall short is an error
// that says what to set.
func autoShard(shards int, getenv func(string) string) (spec, from string, err error) {
	var found []shardEngine
	for _, e := range shardEngines() {
		if strings.TrimSpace(getenv(e.index)) != "" {
			found = append(found, e)
		}
	}
	switch len(found) {
	case 0:
		var known []string
		for _, e := range shardEngines() {
			known = append(known, fmt.Sprintf("%s (%s)", e.index, e.name))
		}
		return "", "", fmt.Errorf("--shard auto: no shard index in the environment: none of %s is set; run under one of these engines or give --shard i/n", strings.Join(known, ", "))
	case 1:
	default:
		var set []string
		for _, e := range found {
			set = append(set, fmt.Sprintf("%s=%s (%s)", e.index, getenv(e.index), e.name))
		}
		return "", "", fmt.Errorf("--shard auto: more than one engine sets a shard index: %s; give --shard i/n to say which holds", strings.Join(set, ", "))
	}
	e := found[0]
	raw := strings.TrimSpace(getenv(e.index))
	index, err := strconv.Atoi(raw)
	if err != nil || index < e.first {
		return "", "", fmt.Errorf("--shard auto: %s=%q (%s) is not a shard index: want a whole number from %d", e.index, raw, e.name, e.first)
	}
	index -= e.first

	count, countFrom := 0, ""
	switch {
	case shards < 0:
		return "", "", fmt.Errorf("--shards %d: want at least 1 shard", shards)
	case shards > 0:
		count, countFrom = shards, fmt.Sprintf("--shards %d", shards)
	case strings.TrimSpace(getenv(shardCountVariable)) != "":
		v := strings.TrimSpace(getenv(shardCountVariable))
		if count, err = strconv.Atoi(v); err != nil || count < 1 {
			return "", "", fmt.Errorf("--shard auto: %s=%q: want the number of shards, a whole number of at least 1", shardCountVariable, v)
		}
		countFrom = fmt.Sprintf("%s=%d", shardCountVariable, count)
	}
	if e.count != "" {
		if v := strings.TrimSpace(getenv(e.count)); v != "" {
			engineCount, err := strconv.Atoi(v)
			if err != nil || engineCount < 1 {
				return "", "", fmt.Errorf("--shard auto: %s=%q (%s): want the number of copies, a whole number of at least 1", e.count, v, e.name)
			}
			if count != 0 && count != engineCount {
				return "", "", fmt.Errorf("--shard auto: %s but %s=%d: %s runs %d copies; drop the count or make the two agree", countFrom, e.count, engineCount, e.name, engineCount)
			}
			count, countFrom = engineCount, fmt.Sprintf("%s=%d", e.count, engineCount)
		}
	}
	if count == 0 {
		return "", "", fmt.Errorf("--shard auto: %s=%s (%s) gives this copy's index but not how many shards there are: give --shards N or set %s (for an Indexed Job, its completions)", e.index, raw, e.name, shardCountVariable)
	}
	if index >= count {
		return "", "", fmt.Errorf("--shard auto: %s=%s (%s) is beyond the %d shard(s) of %s: the indexes run from %d to %d; make the engine's number of copies (an Indexed Job's completions) equal to the number of shards", e.index, raw, e.name, count, countFrom, e.first, count-1+e.first)
	}
	return fmt.Sprintf("%d/%d", index+1, count), fmt.Sprintf("%s=%s, %s", e.index, raw, countFrom), nil
}
