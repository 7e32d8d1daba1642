// Package examples holds runnable examples of agenteval: scenario files
// (every evaluation type that needs no model, mocks, virtual_fs, a code
// step, a conversation with a scripted user, a matrix), a GitHub eval
// scenario whose checkpoints run against github/githubtest, a scenario
// the agent fails on purpose (failing/: the demo's failure to look at), and
// Agent, a small deterministic agent written in Go.
//
// Run them all, then see why the one that fails failed, with
//
//	go run ./examples/demo && go run ./cmd/agenteval view out
//
// which is also how a host program embeds agenteval: load, bind fixtures,
// run with its own agent, score checkpoints, write results. The same files
// run through the CLI with the agent behind the exec protocol:
//
//	go build -o demo-agent ./examples/demo-agent
//	go run ./cmd/agenteval run --agent exec:./demo-agent --allow-commands examples/scenarios
package examples
