// Package matrix expands a matrix file (*.matrix.yaml) into jobs: every
// combination of its axes' values applied to a base scenario, each run
// runs_per_combination times.
//
// # Parameter paths
//
// An axis names the part of the scenario it varies with a path such as
// run[0].conversation.max_turns. Keys that are not identifiers are quoted:
// setup.virtual_fs["data.json"], plugins[0].config['api-key']. A path is
// read into a scenario.Path, whose String gives the canonical form.
//
// # Compiling
//
// Compile checks a loaded matrix file against its base scenario with the
// base's defaults applied, so conversation.timeout_per_turn_ms may be
// varied although the file never wrote it. Every path must exist: struct
// fields by their JSON names, list elements in range, map entries present,
// and everything on the way set; a matrix varies values, it never creates
// them. Each value is applied to the base on its own and the result is
// validated and decoded by the loader, so a value of the wrong type or
// outside an enum is reported at that value's line, with the loader's
// message and suggestion. Two axes may not vary the same part (or one
// inside the other), and values within an axis must differ.
//
// # Expansion
//
// Plan.Jobs yields jobs lazily (an iter.Seq2), axis 0 slowest and the last
// axis fastest, runs of one combination together; memory does not grow with
// the number of jobs, and Plan.Count counts them without expanding. Each
// job's scenario is built copy-on-write: the containers on the overridden
// paths (structs, lists, maps, pointed-to values, an evaluation's
// parameters) are copied shallowly once per job, and everything else is
// shared with the base and with other jobs. A job's cost therefore depends
// on its axes and on the length of the lists and maps they pass through,
// not on the size of the rest of the document. Jobs are never modified once
// yielded; runners must treat them as read-only.
//
// # Identity
//
// A combination's id is c- and 16 hex digits of the SHA-256 of its
// (path, value) pairs as canonical JSON sorted by path, so it depends only
// on what the combination sets, not on axis order, value spelling or the
// matrix's name. A job's id is scenario/combination/run-N (N from 1); a
// scenario without a matrix (Single) has the combination "-". Job.Index is
// the job's position in the whole expansion and does not change with
// filters or shards.
//
// # Selecting
//
// Filters (path=value, values compared as YAML values) keep the jobs whose
// parameters match all of them; a Shard i/n keeps every n-th job of the
// filtered sequence starting with the i-th, so the shards of a run are
// disjoint, balanced, and together the whole run.
package matrix
