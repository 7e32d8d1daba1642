package agenteval

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/matrix"
	"github.com/agenteval/agenteval/runner"
	"github.com/agenteval/agenteval/scenario"
)

// SuiteAgents builds a suite's agents, one per agent × model (one per agent
// when the suite names no models), with the agent types the kit holds:
// a spec without a model whose type takes one (openai, opencode:
// runner.AgentType.ModelArg) takes the suite's model; an exec agent's
// programs get the suite agent's env with AGENTEVAL_AGENT, AGENTEVAL_MODEL
// and AGENTEVAL_INSTRUCTIONS (runner.AgentOptions.Env and Instructions); a
// coding-agent CLI gets the suite's and the agent's mcp_servers
// (AgentOptions.MCPServers); a
// model agent sends the instructions as its first system message. A
// model's max_requests and tokens_per_minute narrow opts.EndpointLimits
// for the agents that use it. The
// variants are in the suite's order, agent-major: pass them in
// RunConfig.Suite runs them (Kit.Run builds them with this).
// ignored lists the agents given instructions or env that their type does
// not take (runner.AgentType.TakesInstructions, TakesEnv).
func (k *Kit) SuiteAgents(s *scenario.Suite, opts runner.AgentOptions) (variants []matrix.Variant, agents map[matrix.Variant]runner.Agent, ignored []string, err error) {
	agents = map[matrix.Variant]runner.Agent{}
	for _, a := range s.Agents {
		for _, m := range suiteModels(s) {
			v := matrix.Variant{Agent: a.Name, Model: m.ID}
			agent, used, err := k.suiteAgent(a, m, s.MCPServers, opts)
			if err != nil {
				return nil, nil, nil, fmt.Errorf("agent %s: %w", v, err)
			}
			if !used && (a.Instructions != "" || len(a.Env) > 0) && !slices.Contains(ignored, a.Name) {
				ignored = append(ignored, a.Name)
			}
			variants = append(variants, v)
			agents[v] = agent
		}
	}
	return variants, agents, ignored, nil
}

// suiteAgent builds one agent of a suite for one model; used says whether
// the agent takes instructions and env.
func (k *Kit) suiteAgent(a scenario.SuiteAgent, m scenario.SuiteModel, mcp map[string]scenario.MCPServer, opts runner.AgentOptions) (runner.Agent, bool, error) {
	name, arg, _ := strings.Cut(a.Agent, ":")
	t, err := k.Agents.Get(name)
	if err != nil {
		return nil, false, err
	}
	if t.ModelArg && arg == "" {
		if m.ID == "" {
			return nil, false, fmt.Errorf("%q names no model and the suite has no models; write %s:MODEL or add models", a.Agent, name)
		}
		arg = m.ID
	}
	opts.Env = slices.Clone(opts.Env)
	for _, key := range slices.Sorted(maps.Keys(a.Env)) {
		opts.Env = append(opts.Env, key+"="+a.Env[key])
	}
	opts.Env = append(opts.Env, "AGENTEVAL_AGENT="+a.Name, "AGENTEVAL_MODEL="+m.ID)
	opts.Instructions = a.Instructions
	if len(mcp) > 0 || len(a.MCPServers) > 0 {
		// The suite's servers, then the agent's, which win by name.
		opts.MCPServers = maps.Clone(opts.MCPServers)
		if opts.MCPServers == nil {
			opts.MCPServers = map[string]scenario.MCPServer{}
		}
		maps.Copy(opts.MCPServers, mcp)
		maps.Copy(opts.MCPServers, a.MCPServers)
	}
	opts.EndpointLimits = llm.EndpointLimits{MaxRequests: tighter(opts.EndpointLimits.MaxRequests, m.MaxRequests),
		TokensPerMinute: tighter(opts.EndpointLimits.TokensPerMinute, m.TokensPerMinute)}
	agent, err := t.New(arg, opts) // as Kit.Agent, with the type already looked up
	if err != nil {
		return nil, false, err
	}
	used := (a.Instructions == "" || t.TakesInstructions) && (len(a.Env) == 0 || t.TakesEnv)
	return agent, used, nil
}

// suiteModels are the suite's models, or one without a name.
func suiteModels(s *scenario.Suite) []scenario.SuiteModel {
	if len(s.Models) == 0 {
		return []scenario.SuiteModel{{}}
	}
	return s.Models
}

// suiteVariants are the suite's agent × model, in its order, agent-major.
func suiteVariants(s *scenario.Suite) []matrix.Variant {
	var out []matrix.Variant
	for _, a := range s.Agents {
		for _, m := range suiteModels(s) {
			out = append(out, matrix.Variant{Agent: a.Name, Model: m.ID})
		}
	}
	return out
}

// tighter is the smaller of two limits, 0 meaning none.
func tighter(a, b int) int {
	switch {
	case a <= 0:
		return max(b, 0)
	case b <= 0:
		return a
	}
	return min(a, b)
}
