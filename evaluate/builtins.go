package evaluate

// builtins returns new values of the 13 built-in kinds: the 12 of the
// agent scenario format and trajectory_match. They are ordinary [Kind]
// values, registered exactly as a host registers its own.
func builtins() []*Kind {
	return []*Kind{
		stringContainsKind(),
		regexMatchKind(),
		llmJudgeKind(),
		trajectoryContainsActionKind(),
		executionTimeKind(),
		fileExistsKind(),
		fileContainsKind(),
		commandExitCodeIsKind(),
		conversationLengthKind(),
		conversationFlowKind(),
		userSatisfactionKind(),
		contextRetentionKind(),
		trajectoryMatchKind(),
	}
}
