// Package checkpoint scores checkpoints: checks on live state (GitHub, in the
// shipped executor) made after an agent's session. Each checkpoint runs one
// capability task through an Executor and tests the data with a condition
// from a Registry; a Checker (its zero value but for the Executor holds the
// built-in condition types and scores one checkpoint at a time) returns a Report with, per checkpoint, the verdict, the data
// (actual), what was expected in words and a message that says why a check
// failed.
//
// # Conditions
//
// NewRegistry holds the eight built-in condition types; a host registers its
// custom scorers (and its own condition types, if it likes) on the same
// registry. The built-ins work on plain JSON data (see normalize):
//
//   - The list rule: a result is a list when it is an array, or an object
//     with an "items" array (what list capabilities return, {items,
//     pageInfo}) or, failing that, a "nodes" array (a raw GraphQL
//     connection). count_gte and count_eq count that list; any other result
//     fails them. When pageInfo.hasNextPage is true the message says that
//     only the first page was counted.
//   - empty holds for null, an empty list by the list rule ({items: []} is
//     empty), "" and {}; non_empty holds exactly when empty does not, so
//     numbers and booleans (0 and false included) are non-empty.
//   - Paths are dotted: each segment is an object key or an array index
//     (items.0.title); "length" on an array is its length (items.length). A
//     negative, signed or zero-padded index, a segment applied to a string
//     or number, or a missing key leads nowhere. The empty path is the whole
//     result.
//   - field_equals compares scalars: numbers by value whatever their Go type
//     (int, int64, uint, float64, json.Number, ...), strings (case-sensitive)
//     and booleans exactly, null only with a present null. A number never
//     equals a string, and a missing field equals nothing, not even null.
//   - field_contains holds for a string containing the value
//     (case-sensitive) or a list with an element equal to the value.
//   - field_gte holds when the value at the path is a number greater than
//     or equal to the value, as ghx's scorer decides it: a missing field, a
//     numeric string, a boolean, null, a list or an object fails (compare a
//     list's length with items.length).
//   - custom hands the data to the Scorer registered under the condition's
//     scorer name. An unregistered name is an error, both at load time (the
//     loader learns the scorers from the kit's registries) and when scoring.
//
// A report with zero checkpoints does not pass.
//
// # Differences from the ghx reference scorer
//
// The conditions do what the ghx documentation promises rather than what its
// scorer does: count_gte, count_eq, empty and non_empty apply the list rule
// (there, list capabilities return {items, pageInfo}, so counts never pass
// and non_empty passes for a list without items); "" and {} are empty;
// field_contains matches list elements; custom calls a registered scorer
// (there it is always false); the empty path is the whole result (there it
// is the key ""); expected values are printed as JSON, quotes escaped. A
// failed task keeps its expected text, and every result says why it failed.
package checkpoint
