package plan_test

import (
	"context"
	"fmt"

	"github.com/agenteval/agenteval"
	"github.com/agenteval/agenteval/plan"
)

// Make forecasts the jobs a run would run, before anything runs: here ten
// runs of the weather scenario with an agent that makes no paid calls
// (the echo agent, or a host's own) and the scripted user.
func ExampleMake() {
	kit := agenteval.New()
	files, err := kit.Load("../examples/scenarios/weather.scenario.yaml")
	if err != nil {
		fmt.Println(err)
		return
	}
	jobs, total, err := kit.Jobs(agenteval.RunConfig{Runs: 10}, files...)
	if err != nil {
		fmt.Println(err)
		return
	}
	p, err := plan.Make(context.Background(), jobs, plan.Options{Concurrency: 4, NoAgentModel: true, NoUserModel: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("jobs:", total, p.Jobs)
	fmt.Println("forecast from limits:", p.Basis.LimitJobs, "from history:", p.Basis.HistoryJobs)
	fmt.Println("cost known:", p.CostUSD != nil, "cost:", *p.CostUSD)
	// Output:
	// jobs: 10 10
	// forecast from limits: 10 from history: 0
	// cost known: true cost: 0
}
