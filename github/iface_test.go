package github_test

import (
	"github.com/agenteval/agenteval/checkpoint"
	"github.com/agenteval/agenteval/github"
)

// The executor plugs into checkpoint scoring like any other Executor.
var _ checkpoint.Executor = (*github.Executor)(nil)
