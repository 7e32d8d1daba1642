package judge

import "slices"

// combine merges samples by majority: Pass needs more than half of the
// samples to pass (a tie fails, as the cautious reading), Score is the mean.
func combine(in Input, results []sampleResult) Verdict {
	v := Verdict{Samples: len(results), Cached: true}
	for _, r := range results {
		if r.pass {
			v.Passes++
		}
		v.Score += r.score
		v.Usage = v.Usage.Add(r.usage)
		v.Cached = v.Cached && r.cached
		if v.Model == "" {
			v.Model = r.model
		}
	}
	v.Score /= float64(len(results))
	v.Pass = v.Passes*2 > len(results)
	agree := results[0]
	for _, r := range results {
		if r.pass == v.Pass {
			agree = r
			break
		}
	}
	v.Reasoning = agree.raw.reasoning
	v.Capabilities = combineCapabilities(in.Capabilities, results, agree)
	return v
}

// combineCapabilities reports each requested capability in request order,
// achieved when most samples say so. A model's entry is matched by name
// (ignoring case and punctuation), else by position when it returned exactly
// the requested number of entries.
func combineCapabilities(requested []string, results []sampleResult, agree sampleResult) []CapabilityVerdict {
	if len(requested) == 0 {
		return slices.Clone(agree.raw.caps)
	}
	out := make([]CapabilityVerdict, len(requested))
	found := make([]CapabilityVerdict, 0, len(results))
	for i, name := range requested {
		found = found[:0]
		achieved := 0
		for _, r := range results {
			if c, ok := findCapability(r.raw.caps, name, i, len(requested)); ok {
				found = append(found, c)
				if c.Achieved {
					achieved++
				}
			}
		}
		out[i] = CapabilityVerdict{Capability: name, Achieved: achieved*2 > len(results)}
		if len(found) == 0 {
			out[i].Reasoning = "the judge did not report on this capability"
			continue
		}
		// Explain the outcome with the words of a sample that agrees.
		for _, c := range found {
			if c.Achieved == out[i].Achieved {
				out[i].Reasoning = c.Reasoning
				break
			}
		}
	}
	return out
}

func findCapability(caps []CapabilityVerdict, name string, index, total int) (CapabilityVerdict, bool) {
	want := normKey(name)
	for _, c := range caps {
		if normKey(c.Capability) == want {
			return c, true
		}
	}
	if len(caps) == total {
		return caps[index], true
	}
	return CapabilityVerdict{}, false
}
