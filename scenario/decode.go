package scenario

import (
	"errors"
	"fmt"
)

// DecodeEvaluation turns one evaluation given as data into an Evaluation
// as the loader would have made it from a file: checked against its type's
// schema and the type's own rules, its parameters decoded into the type's
// struct with their defaults. data is YAML or JSON text ([]byte or string;
// diagnostics then carry lines and columns) or plain Go data such as a
// map[string]any. The error, when not nil, is Diagnostics whose paths are
// relative to the evaluation ("pattern").
func (l *Loader) DecodeEvaluation(data any) (Evaluation, error) {
	var e Evaluation
	f, ok := l.fragment("evaluation", data)
	if ok {
		cs := f.gen.schema(KindScenario)
		if l.validatePart(f, cs, "Evaluation") {
			m, _ := f.Doc.Value.(map[string]any)
			typ, _ := m["type"].(string)
			if sch, _ := cs.evalSchema(typ); sch != nil && l.validatePart(f, cs, "Evaluation_"+typ) {
				if err := decodeValue(f.Doc.Value, &e); err != nil {
					f.addf(nil, Error, "type", "%v", err)
				} else {
					l.decodeEvaluation(f, &e, nil)
					if e.Params != nil {
						l.checkParams(f, nil, &e)
					}
				}
			}
		}
	}
	f.Diagnostics = l.finish(f.Diagnostics)
	return e, f.Diagnostics.err()
}

// DecodeCondition turns one checkpoint condition given as data into a
// Condition as the loader would have made it from a file: its type one the
// registries hold, with the fields that type needs, and a custom
// condition's scorer registered. data is as for DecodeEvaluation.
func (l *Loader) DecodeCondition(data any) (Condition, error) {
	var c Condition
	f, ok := l.fragment("condition", data)
	if ok {
		cs := f.gen.schema(KindScenario)
		if l.validatePart(f, cs, "Condition") {
			if err := decodeValue(f.Doc.Value, &c); err != nil {
				f.addf(nil, Error, "type", "%v", err)
			} else {
				l.checkScorer(f, nil, c)
			}
		}
	}
	f.Diagnostics = l.finish(f.Diagnostics)
	return c, f.Diagnostics.err()
}

// fragment reads data, named name in diagnostics, into a File of its own;
// ok is false when it could not be read.
func (l *Loader) fragment(name string, data any) (*File, bool) {
	f := &File{Name: name, Kind: KindScenario, loader: l, gen: l.current()}
	switch d := data.(type) {
	case []byte:
		f.Doc, f.Diagnostics = ParseDocument(name, d, l.opts.Limits)
	case string:
		f.Doc, f.Diagnostics = ParseDocument(name, []byte(d), l.opts.Limits)
	default:
		plain, err := plainValue(data)
		if err != nil {
			f.addf(nil, Error, "type", "value cannot be written as JSON: %v", err)
			return f, false
		}
		f.Doc = &Document{File: name, Value: plain}
	}
	return f, f.Doc != nil && !f.Diagnostics.HasErrors()
}

// validatePart checks f's whole value against the schema at $defs/name of
// cs's document and reports whether it passed.
func (l *Loader) validatePart(f *File, cs *compiledSchema, name string) bool {
	sch, err := cs.part(name)
	if cs.err != nil || err != nil || sch == nil {
		f.addf(nil, Error, "internal", "schema: %v", fmt.Sprint(errors.Join(cs.err, err)))
		return false
	}
	before := len(f.Diagnostics.Errors())
	l.validateAt(f, cs, sch, nil, f.Doc.Value)
	return len(f.Diagnostics.Errors()) == before
}
