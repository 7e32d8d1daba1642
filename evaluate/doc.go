// Package evaluate turns the evidence of a run (a [Trace]) into evaluation
// results.
//
// Every evaluation type is one [Kind]: a name, documentation, the parameter
// struct a scenario file fills and a constructor that validates those
// parameters once and returns an [Evaluator]. Kinds live in an explicit
// [Registry]; the 13 built-ins ([Builtins]) are registered exactly as a host
// program registers its own, and [Registry.Types] hands the same names and
// parameter structs to the scenario loader and the JSON Schema generator.
//
// A runner compiles each scenario once with [Registry.Compile] (regular
// expressions, parsed expectations and defaults are prepared there, not once
// per run) and then calls [Compiled.Evaluate] after each step, each
// conversation turn and each conversation's end. Evaluations never panic into
// their caller and never reach the network except through the configured
// judge model.
package evaluate
