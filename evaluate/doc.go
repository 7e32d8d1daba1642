// Package evaluate turns the evidence of a run (a [Trace]) into evaluation
// results.
//
// Every evaluation type is one [Kind]: a name, documentation, the parameter
// struct a scenario file fills and a constructor that validates those
// parameters once and returns an [Evaluator]. Kinds live in an explicit
// [registry.Registry] ([NewRegistry]); the 13 built-ins are registered
// exactly as a host program registers its own, and the registries hand the
// same names and parameter structs to the scenario loader and the JSON
// Schema generator.
//
// The built-ins, each documented on its constructor (what it reads, what
// passes, how the score is computed):
//
//   - string_contains: [stringContainsKind]
//   - regex_match: [regexMatchKind]
//   - llm_judge: [llmJudgeKind]
//   - trajectory_contains_action: [trajectoryContainsActionKind]
//   - trajectory_match: [trajectoryMatchKind]
//   - execution_time: [executionTimeKind]
//   - file_exists: [fileExistsKind]
//   - file_contains: [fileContainsKind]
//   - command_exit_code_is: [commandExitCodeIsKind]
//   - conversation_length: [conversationLengthKind]
//   - conversation_flow: [conversationFlowKind]
//   - user_satisfaction: [userSatisfactionKind]
//   - context_retention: [contextRetentionKind]
//
// Text checks read [Input.Text], trajectory checks [Input.Actions] and the
// judge [Input.Evidence], so a host's evaluator can read the same evidence
// the same way. A check that judged and found a failure returns a results.Evaluation
// with Passed false and a message a person can act on; an error means the
// check could not judge at all (no judge model, a failed model call, a
// cancelled run), and the results.Evaluation then carries it in Error.
//
// A runner compiles each scenario once with [Compile] (regular
// expressions, parsed expectations and defaults are prepared there, not once
// per run) and then calls [Compiled.Evaluate] after each step, each
// conversation turn and each conversation's end. Evaluations never panic into
// their caller and never reach the network except through the configured
// judge model.
package evaluate
