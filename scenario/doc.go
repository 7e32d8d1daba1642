// Package scenario reads the files agenteval evaluates agents with: agent
// scenarios (*.scenario.yaml), GitHub eval scenarios (ghx JSON), matrices
// (*.matrix.yaml), fixture manifests and scenario-sets.json.
//
// Loading parses the text keeping every value's line and column, checks it
// against the JSON Schema generated from this package's Go types (the same
// schema `agenteval schema` prints for editors), decodes it into those
// types, fills documented defaults and applies the rules a schema cannot
// express. Every finding is a [Diagnostic] positioned at the text a person
// must edit:
//
//	f, err := scenario.LoadFile("greet.scenario.yaml")
//	if err != nil {
//		for _, d := range f.Diagnostics {
//			fmt.Println(d) // greet.scenario.yaml:13:15: error: run[0].evaluations[0].type: ...
//		}
//	}
//
// Both formats meet in one runtime model, [Scenario]. The names a file may
// use where the formats leave them open (evaluation types, strategies,
// condition types, ...) come from the program's [Registries]
// (agenteval.Kit); a type a host program registers there is accepted by a
// [Loader] built on them, and [GenerateSchema] describes it, exactly like
// the built-ins.
package scenario
