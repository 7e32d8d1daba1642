package matrix_test

import (
	"context"
	"fmt"

	"github.com/agenteval/agenteval"
	"github.com/agenteval/agenteval/matrix"
	"github.com/agenteval/agenteval/scenario"
)

func ExampleCompile() {
	l := scenario.NewLoader(agenteval.New(), scenario.Options{})
	f, _ := l.LoadFile("testdata/small.matrix.yaml")
	plan, diags := matrix.Compile(f, matrix.Options{})
	if diags.HasErrors() {
		fmt.Println(diags)
		return
	}
	n, _ := plan.Count()
	fmt.Println(n, "jobs over", plan.Parameters())
	for job, err := range plan.Jobs(context.Background()) {
		if err != nil {
			panic(err)
		}
		fmt.Println(job.ID, job.Scenario.Run[1].Conversation.MaxTurns, job.Scenario.Judgment.Strategy)
	}
	// Output:
	// 4 jobs over [run[1].conversation.max_turns judgment.strategy]
	// small/c-c817f01b74ae4950/run-1 2 all_pass
	// small/c-ce53dd397db3dc93/run-1 2 any_pass
	// small/c-f8b057618fa6ad64/run-1 5 all_pass
	// small/c-75a1dbbb747517af/run-1 5 any_pass
}

func ExamplePlan_Select() {
	l := scenario.NewLoader(agenteval.New(), scenario.Options{})
	f, _ := l.LoadFile("testdata/small.matrix.yaml")
	plan, _ := matrix.Compile(f, matrix.Options{})
	filters, _ := matrix.ParseFilters([]string{"run[1].conversation.max_turns=5"})
	shard, _ := matrix.ParseShard("2/2")
	part, err := plan.Select(filters, shard)
	if err != nil {
		panic(err)
	}
	for job, err := range part.Headers(context.Background()) {
		if err != nil {
			panic(err)
		}
		fmt.Println(job.Index, job.Params)
	}
	// Output:
	// 3 [{run[1].conversation.max_turns 5} {judgment.strategy any_pass}]
}

func ExampleSingle() {
	l := scenario.NewLoader(agenteval.New(), scenario.Options{})
	f, err := l.LoadFile("testdata/base.scenario.yaml")
	if err != nil {
		panic(err)
	}
	for job, err := range matrix.Single(f.Scenario, 2, 0).Jobs(context.Background()) {
		if err != nil {
			panic(err)
		}
		fmt.Println(job.ID, job.Combination, job.Run)
	}
	// Output:
	// base/-/run-1 - 1
	// base/-/run-2 - 2
}
