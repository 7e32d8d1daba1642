package evaluate

// Builtins returns new values of the 13 built-in kinds: the 12 of the
// agent scenario format and trajectory_match. They are ordinary [Kind]
// values, registered exactly as a host registers its own.
func Builtins() []*Kind {
	return []*Kind{
		StringContainsKind(),
		RegexMatchKind(),
		LLMJudgeKind(),
		TrajectoryContainsActionKind(),
		ExecutionTimeKind(),
		FileExistsKind(),
		FileContainsKind(),
		CommandExitCodeIsKind(),
		ConversationLengthKind(),
		ConversationFlowKind(),
		UserSatisfactionKind(),
		ContextRetentionKind(),
		TrajectoryMatchKind(),
	}
}
