package scenario

import (
	"fmt"
	"path"
	"strings"

	"github.com/agenteval/agenteval/internal/textdist"
)

// Kind is a kind of document agenteval reads.
type Kind int

const (
	// KindUnknown is a file the loader cannot place.
	KindUnknown Kind = iota
	// KindScenario is an agent scenario (*.scenario.yaml, or JSON of the same shape).
	KindScenario
	// KindGitHub is a GitHub eval scenario (ghx JSON, camelCase).
	KindGitHub
	// KindMatrix is a matrix file (*.matrix.yaml).
	KindMatrix
	// KindManifest is a fixture manifest (JSON).
	KindManifest
	// KindScenarioSets is scenario-sets.json: set name → GitHub scenario ids.
	KindScenarioSets
	// KindSuite is a suite (*.suite.yaml): agents × models × scenarios.
	KindSuite
	// KindEvalConfig is ghx's eval.config.yaml: modes × models × scenarios.
	KindEvalConfig
)

var kindNames = [...]string{"unknown", "scenario", "eval", "matrix", "manifest", "sets", "suite", "eval-config"}

// String returns the kind's short name as the CLI uses it: scenario, eval,
// matrix, manifest, sets, suite or eval-config.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// ParseKind returns the kind named by s (as printed by String).
func ParseKind(s string) (Kind, error) {
	for i, n := range kindNames {
		if i > 0 && n == s {
			return Kind(i), nil
		}
	}
	names := kindNames[1:]
	msg := fmt.Sprintf("unknown document kind %q; want one of %s", s, strings.Join(names, ", "))
	if sug := textdist.Suggest(s, names); sug != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", sug)
	}
	return KindUnknown, fmt.Errorf("%s", msg)
}

// detectKind decides a file's kind from its name and, where the name does not
// settle it, from its content's top-level keys.
func detectKind(name string, value any) Kind {
	base := strings.ToLower(path.Base(strings.ReplaceAll(name, `\`, "/")))
	switch {
	case strings.HasSuffix(base, ".scenario.yaml"), strings.HasSuffix(base, ".scenario.yml"), strings.HasSuffix(base, ".scenario.json"):
		return KindScenario
	case strings.HasSuffix(base, ".matrix.yaml"), strings.HasSuffix(base, ".matrix.yml"), strings.HasSuffix(base, ".matrix.json"):
		return KindMatrix
	case base == "scenario-sets.json":
		return KindScenarioSets
	case strings.HasSuffix(base, ".suite.yaml"), strings.HasSuffix(base, ".suite.yml"), strings.HasSuffix(base, ".suite.json"):
		return KindSuite
	case base == "eval.config.yaml", base == "eval.config.yml":
		return KindEvalConfig
	}
	m, ok := value.(map[string]any)
	if !ok {
		return KindUnknown
	}
	has := func(k string) bool { _, ok := m[k]; return ok }
	switch {
	case has("base_scenario") || (has("matrix") && !has("run")):
		return KindMatrix
	case has("seedId") || (has("fixtures") && has("createdAt")):
		return KindManifest
	case has("prompt") || has("assertions") || has("timeoutMs"):
		return KindGitHub
	case has("run") || has("judgment") || has("environment"):
		return KindScenario
	case has("agents") && has("scenarios"):
		return KindSuite
	case has("modes") && has("models"):
		return KindEvalConfig
	}
	if len(m) > 0 {
		allLists := true
		for _, v := range m {
			if _, ok := v.([]any); !ok {
				allLists = false
				break
			}
		}
		if allLists {
			return KindScenarioSets
		}
	}
	return KindUnknown
}
