package matrix

import (
	"reflect"
	"unsafe"

	"github.com/agenteval/agenteval/scenario"
)

// typedBuild builds a job's scenario with plain Go copies instead of the
// reflect calls of cow, for the shapes most matrices have: every axis a
// field of the scenario (name, judgment.strategy) or a field of an element
// of one of its lists (run[0].input, plugins[1].name, tags[0]), reached
// through struct fields held inline. It is planned once from the trie and
// yields the same scenario cow does, sharing the same parts with the base:
// the scenario struct and the lists on the paths are new (a list with its
// length as its capacity), everything else is the base's. Leaf slots are
// found by their offsets, which reflect gives when the plan is made.
type typedBuild struct {
	leaves []typedLeaf // slots in the scenario struct itself
	lists  []typedList
}

// typedList is a list field of the scenario that axes go into.
type typedList struct {
	off    uintptr // of the slice header in the scenario struct
	clone  func(field unsafe.Pointer) unsafe.Pointer
	single func(base *scenario.Scenario, off uintptr) (*scenario.Scenario, unsafe.Pointer)
	leaves []typedLeaf // offsets from the list's first element
}

// typedLeaf is a slot an axis fills, at off bytes from its container.
type typedLeaf struct {
	off  uintptr
	kind reflect.Kind
	typ  reflect.Type
	axis int
}

var scenarioPtrType = reflect.TypeFor[*scenario.Scenario]()

// planTyped returns the typed builder for the trie under root, or nil when
// a path has a shape it does not handle (a pointer, a map or an interface
// below the scenario, a list of a type listCopier does not know), in which
// case jobs are built by cow.
func planTyped(root *node, base reflect.Value) *typedBuild {
	if base.Type() != scenarioPtrType || base.IsNil() || root.axis >= 0 {
		return nil
	}
	st := scenarioPtrType.Elem()
	t := &typedBuild{}
	for _, c := range root.children {
		if c.step.kind != stepField {
			return nil
		}
		f := st.Field(c.step.field)
		if c.axis >= 0 || f.Type.Kind() == reflect.Struct || f.Type.Kind() == reflect.Array {
			if !inlineLeaves(st, 0, c, &t.leaves) {
				return nil
			}
			continue
		}
		clone, single := listCopier(f.Type)
		if clone == nil {
			return nil
		}
		l := typedList{off: f.Offset, clone: clone}
		for _, g := range c.children {
			if !inlineLeaves(f.Type, 0, g, &l.leaves) {
				return nil
			}
		}
		if base.Elem().Field(c.step.field).Len() == 1 {
			l.single = single
		}
		t.lists = append(t.lists, l)
	}
	return t
}

// inlineLeaves adds the leaves under n, a step into a value of type t (a
// struct, an array, or a slice whose elements are stepped into in place)
// at offset off, to out. It reports false when a step leaves memory held
// inline (a pointer, a map, an interface, a slice inside the element).
func inlineLeaves(t reflect.Type, off uintptr, n *node, out *[]typedLeaf) bool {
	var ft reflect.Type
	switch {
	case n.step.kind == stepField && t.Kind() == reflect.Struct:
		f := t.Field(n.step.field)
		ft, off = f.Type, off+f.Offset
	case n.step.kind == stepIndex && (t.Kind() == reflect.Array || t.Kind() == reflect.Slice):
		ft = t.Elem()
		off += uintptr(n.step.index) * ft.Size()
	default:
		return false
	}
	if n.axis >= 0 {
		*out = append(*out, typedLeaf{off: off, kind: ft.Kind(), typ: ft, axis: n.axis})
		return true
	}
	if ft.Kind() != reflect.Struct && ft.Kind() != reflect.Array {
		return false
	}
	for _, c := range n.children {
		if !inlineLeaves(ft, off, c, out) {
			return false
		}
	}
	return true
}

// listCopier returns the typed copiers for a list field of type t: clone
// replaces the list at field with a copy (capacity = length) and returns its
// first element; single copies the scenario and its one-element list at
// off in one allocation. Both are nil for a type it does not know.
func listCopier(t reflect.Type) (clone func(unsafe.Pointer) unsafe.Pointer, single func(*scenario.Scenario, uintptr) (*scenario.Scenario, unsafe.Pointer)) {
	switch t {
	case reflect.TypeFor[[]scenario.RunStep]():
		return cloneList[scenario.RunStep], withOne[scenario.RunStep]
	case reflect.TypeFor[[]scenario.Plugin]():
		return cloneList[scenario.Plugin], withOne[scenario.Plugin]
	case reflect.TypeFor[[]scenario.Checkpoint]():
		return cloneList[scenario.Checkpoint], withOne[scenario.Checkpoint]
	case reflect.TypeFor[[]string]():
		return cloneList[string], withOne[string]
	}
	return nil, nil
}

func cloneList[T any](field unsafe.Pointer) unsafe.Pointer {
	old := *(*[]T)(field)
	n := make([]T, len(old))
	copy(n, old)
	*(*[]T)(field) = n
	return unsafe.Pointer(unsafe.SliceData(n))
}

// scenarioWith is a scenario and the one element of a list it holds, in
// one allocation: a job's scenario and its only run step, say.
type scenarioWith[T any] struct {
	s    scenario.Scenario
	elem [1]T
}

func withOne[T any](base *scenario.Scenario, off uintptr) (*scenario.Scenario, unsafe.Pointer) {
	x := &scenarioWith[T]{s: *base}
	field := (*[]T)(unsafe.Add(unsafe.Pointer(&x.s), off))
	x.elem[0] = (*field)[0]
	*field = x.elem[:]
	return &x.s, unsafe.Pointer(&x.elem[0])
}

// build returns the base with the chosen values applied, as cow would.
func (t *typedBuild) build(base *scenario.Scenario, axes []axis, choice []int) *scenario.Scenario {
	var s *scenario.Scenario
	first := 0
	if len(t.lists) == 1 && t.lists[0].single != nil {
		var elem unsafe.Pointer
		s, elem = t.lists[0].single(base, t.lists[0].off)
		setLeaves(elem, t.lists[0].leaves, axes, choice)
		first = 1
	} else {
		s = new(scenario.Scenario)
		*s = *base
	}
	setLeaves(unsafe.Pointer(s), t.leaves, axes, choice)
	for i := first; i < len(t.lists); i++ {
		l := &t.lists[i]
		setLeaves(l.clone(unsafe.Add(unsafe.Pointer(s), l.off)), l.leaves, axes, choice)
	}
	return s
}

func setLeaves(at unsafe.Pointer, leaves []typedLeaf, axes []axis, choice []int) {
	for i := range leaves {
		l := &leaves[i]
		a, j := &axes[l.axis], choice[l.axis]
		p := unsafe.Add(at, l.off)
		if l.kind == reflect.String && a.leaves == nil {
			*(*string)(p) = a.values[j].(string) // a text is its own leaf
			continue
		}
		v := a.leaf(j)
		switch l.kind {
		case reflect.String:
			*(*string)(p) = v.String()
		case reflect.Int:
			*(*int)(p) = int(v.Int())
		case reflect.Bool:
			*(*bool)(p) = v.Bool()
		default:
			reflect.NewAt(l.typ, p).Elem().Set(v)
		}
	}
}
