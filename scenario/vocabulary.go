package scenario

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// Registries is what a [Loader] and [GenerateSchema] ask about the names a
// file may use where the formats leave them open: evaluation types (with
// their parameters), judgment strategies, checkpoint condition types and
// custom scorers, conversation termination types and environment types.
// The registries hold them, not this package, so a type a host program
// registers is accepted by the loader and offered by the schema exactly
// like a built-in. agenteval.Kit implements it; implementations must be
// safe for concurrent use.
type Registries interface {
	// Version changes whenever what Vocabulary reports does; a Loader
	// rebuilds its compiled schemas then, so a registration made after a
	// loader was made is seen by that loader.
	Version() uint64
	// Vocabulary returns what the registries hold now.
	Vocabulary() *Vocabulary
}

// Vocabulary is what the registries hold, as the formats see it: for each
// open field, the names it takes and their documentation.
type Vocabulary struct {
	// Evaluations are the evaluation types (`type:` of an evaluation).
	Evaluations []EvaluationType
	// Strategies are the judgment strategies (judgment.strategy).
	Strategies []Term
	// Conditions are the checkpoint condition types (condition.type), with
	// the fields each needs.
	Conditions []Term
	// Scorers are the custom scorers a custom condition may name
	// (condition.scorer).
	Scorers []Term
	// Terminations are the conversation termination condition types
	// (termination_conditions[].type).
	Terminations []Term
	// Environments are the environment types (environment.type), including
	// those the format documents that have no provider here (e2b).
	Environments []Term
	// Agents are the agent types: the part of a suite's agent spec before
	// the colon (echo, exec, openai).
	Agents []Term
}

// EvaluationType is one evaluation type as the formats see it: its name in
// files, its documentation and its parameter struct, whose json and
// jsonschema tags define the fields the type accepts, both for the loader
// and for the generated JSON Schema. evaluate.Kind is where a type is
// declared; this is what the registries tell the loader about it.
type EvaluationType struct {
	// Name is the value of `type:` in files.
	Name string
	// Doc is the first-line summary, then details, shown in the schema and in docs.
	Doc string
	// NewParams returns a pointer to a new, zero parameter struct. A struct
	// with a SetDefaults() method has it called after decoding.
	NewParams func() any
	// Conversation marks a type that judges a conversation: a file may use
	// it only in a step that has one.
	Conversation bool
}

// Term is one name an open field takes, with what a file must give along
// with it.
type Term struct {
	// Name is the value as written in files.
	Name string
	// Doc says what it means; the schema shows it.
	Doc string
	// Needs lists the fields a condition or termination condition of this
	// type must give; "a|b" means at least one of a and b
	// (custom_condition needs keywords|llm_judge).
	Needs []string
	// Value is the JSON type a condition's value must have: "number",
	// "string" or "scalar" (a string, number, boolean or null); "" leaves
	// it free.
	Value string
}

// vocab is a Vocabulary indexed for the loader, with the fingerprint that
// tells whether the embedded schemas describe it.
type vocab struct {
	*Vocabulary
	evals       map[string]*EvaluationType
	terms       map[string]map[string]*Term // field → name → term
	fingerprint string
}

// Vocabulary fields by the name the schema patcher and the checks use.
const (
	fieldStrategy    = "strategy"
	fieldCondition   = "condition"
	fieldScorer      = "scorer"
	fieldTermination = "termination"
	fieldEnvironment = "environment"
	fieldAgent       = "agent"
)

func newVocab(v *Vocabulary) *vocab {
	if v == nil {
		v = &Vocabulary{}
	}
	x := &vocab{Vocabulary: v, evals: map[string]*EvaluationType{}, terms: map[string]map[string]*Term{}}
	for i := range v.Evaluations {
		x.evals[v.Evaluations[i].Name] = &v.Evaluations[i]
	}
	for field, ts := range x.fields() {
		m := map[string]*Term{}
		for i := range ts {
			m[ts[i].Name] = &ts[i]
		}
		x.terms[field] = m
	}
	x.fingerprint = v.fingerprint()
	return x
}

func (v *vocab) fields() map[string][]Term {
	return map[string][]Term{fieldStrategy: v.Strategies, fieldCondition: v.Conditions, fieldScorer: v.Scorers,
		fieldTermination: v.Terminations, fieldEnvironment: v.Environments, fieldAgent: v.Agents}
}

// names returns the names a field takes, sorted.
func (v *vocab) names(field string) []string {
	out := make([]string, 0, len(v.terms[field]))
	for n := range v.terms[field] {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// evaluationNames returns the evaluation type names, sorted.
func (v *vocab) evaluationNames() []string {
	out := make([]string, 0, len(v.evals))
	for n := range v.evals {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// fingerprint digests everything of v that the generated schemas show (not
// the scorers, which they do not list), so that the embedded schemas (of
// the built-in registries) are served only for a vocabulary that generates
// them.
func (v *Vocabulary) fingerprint() string {
	h := sha256.New()
	w := func(parts ...string) {
		for _, p := range parts {
			fmt.Fprintf(h, "%d:%s", len(p), p)
		}
	}
	for _, e := range v.Evaluations {
		rt := reflect.TypeOf(e.NewParams())
		w("evaluation", e.Name, e.Doc, fmt.Sprint(e.Conversation), rt.String(), rt.Elem().PkgPath())
	}
	for _, f := range []struct {
		name  string
		terms []Term
	}{{"strategy", v.Strategies}, {"condition", v.Conditions}, {"termination", v.Terminations}, {"environment", v.Environments}, {"agent", v.Agents}} {
		for _, t := range f.terms {
			w(f.name, t.Name, t.Doc, strings.Join(t.Needs, ","), t.Value)
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}
