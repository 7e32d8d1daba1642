package scenario

import "testing"

// UpdateGolden reports whether the tests run with -update, for the external
// test package (one test binary holds one flag of a name).
func UpdateGolden() bool { return *update }

// InternalTestVocabulary is the vocabulary this package's internal tests
// load with.
func InternalTestVocabulary() *Vocabulary { return testRegistries{}.Vocabulary() }

// GenerateFresh reflects the schema of kind k for reg with the given doc
// comments, never serving the embedded files (which it regenerates).
func GenerateFresh(k Kind, reg Registries, comments map[string]string) ([]byte, error) {
	return generateSchema(k, newVocab(reg.Vocabulary()), comments)
}

// Fingerprint is the fingerprint of reg's vocabulary, as
// schemas/builtin.fingerprint holds it for the built-in registries.
func Fingerprint(reg Registries) string { return newVocab(reg.Vocabulary()).fingerprint }

// ExtractComments returns the doc comments the schemas are made of, fresh
// from the source, and MarshalComments writes them as comments.json holds
// them.
func ExtractComments(t testing.TB) map[string]string { return extractComments(t) }

// MarshalComments is the form of schemas/comments.json.
func MarshalComments(t testing.TB, m map[string]string) []byte { return marshalComments(t, m) }

// FirstDiff shows the first line where want and got differ.
func FirstDiff(want, got string) string { return firstDiff(want, got) }

// DetectKind, ParsePointer, Scenarios, Matrices, LoadDir and AgentNames
// are the package's own helpers, for the external tests.
func DetectKind(name string, value any) Kind { return detectKind(name, value) }

func ParsePointer(ptr string) Path { return parsePointer(ptr) }

func (s *Set) Scenarios() []*File { return s.scenarios() }

func (s *Set) Matrices() []*File { return s.matrices() }

func (l *Loader) LoadDir(dir string) (*Set, error) { return l.loadDir(dir) }

func AgentNames(s *Suite) []string { return s.agentNames() }

// Pointer renders the path as an RFC 6901 JSON pointer.
func (p Path) Pointer() string { return p.pointer() }
