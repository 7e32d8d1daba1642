package matrix

import (
	"fmt"
	"maps"
	"reflect"
)

// node is a trie over the steps of every axis. Materialising a job walks it
// once from the base scenario: each container on an overridden path is
// copied once (shallowly), each leaf takes the axis value chosen for the
// job, and everything off the paths is shared with the base. Containers that
// two axes pass through are copied once, not once per axis.
type node struct {
	step     step
	axis     int // the axis whose value fills this slot, or -1 for an inner node
	children []*node
}

// insert adds an axis's steps under n. It fails when the path overlaps
// another axis's path (one is a prefix of the other, or they are equal),
// since two values for one slot have no defined order.
func (n *node) insert(steps []step, axis int) (conflict int, ok bool) {
	cur := n
	for i, s := range steps {
		if cur.axis >= 0 {
			return cur.axis, false
		}
		var next *node
		for _, c := range cur.children {
			if c.step.same(s) {
				next = c
				break
			}
		}
		if next == nil {
			next = &node{step: s, axis: -1}
			cur.children = append(cur.children, next)
		} else if i == len(steps)-1 {
			return firstAxis(next), false
		}
		cur = next
	}
	cur.axis = axis
	return 0, true
}

// firstAxis returns an axis that ends at or below n.
func firstAxis(n *node) int {
	if n.axis >= 0 {
		return n.axis
	}
	for _, c := range n.children {
		if a := firstAxis(c); a >= 0 {
			return a
		}
	}
	return -1
}

// cow returns a copy of old with n's overrides applied: old itself is never
// written, and only the containers on n's paths are copied. A leaf for axis
// a takes axes[a].leaf(choice[a]).
func cow(old reflect.Value, n *node, axes []axis, choice []int) reflect.Value {
	if n.axis >= 0 {
		return axes[n.axis].leaf(choice[n.axis])
	}
	switch old.Kind() {
	case reflect.Pointer:
		nv := reflect.New(old.Type().Elem())
		nv.Elem().Set(old.Elem())
		applyChildren(nv.Elem(), n, axes, choice)
		return nv
	case reflect.Interface:
		// The concrete value is assignable to the interface slot it came from.
		return cow(old.Elem(), n, axes, choice)
	case reflect.Struct:
		// Only reached for a struct held in a map or an interface; structs
		// in fields and list elements are updated in place by applyChildren.
		nv := reflect.New(old.Type()).Elem()
		nv.Set(old)
		applyChildren(nv, n, axes, choice)
		return nv
	case reflect.Slice:
		nv := reflect.MakeSlice(old.Type(), old.Len(), old.Len())
		reflect.Copy(nv, old)
		applyChildren(nv, n, axes, choice)
		return nv
	case reflect.Map:
		switch m := old.Interface().(type) {
		case map[string]any:
			// Typed fast paths: reflect's map iteration copies every key and
			// value to the heap; maps.Clone does not.
			nm := maps.Clone(m)
			for _, c := range n.children {
				k := c.step.key.String()
				if c.axis >= 0 {
					nm[k] = axes[c.axis].leaf(choice[c.axis]).Interface()
				} else {
					nm[k] = cow(reflect.ValueOf(m[k]), c, axes, choice).Interface()
				}
			}
			return reflect.ValueOf(nm)
		case map[string]string:
			// A string holds no containers, so every child is a leaf.
			nm := maps.Clone(m)
			for _, c := range n.children {
				nm[c.step.key.String()] = axes[c.axis].leaf(choice[c.axis]).String()
			}
			return reflect.ValueOf(nm)
		}
		nv := reflect.MakeMapWithSize(old.Type(), old.Len())
		it := old.MapRange()
		for it.Next() {
			nv.SetMapIndex(it.Key(), it.Value())
		}
		for _, c := range n.children {
			nv.SetMapIndex(c.step.key, cow(old.MapIndex(c.step.key), c, axes, choice))
		}
		return nv
	default:
		// resolve only produces steps into containers.
		panic(fmt.Sprintf("matrix: internal error: cannot step into a %s", old.Kind()))
	}
}

// applyChildren replaces each child slot of dst, a private copy, with the
// child's overridden value. A struct or array slot is already a private
// copy (it lives inside dst), so it is updated in place, without allocating.
func applyChildren(dst reflect.Value, n *node, axes []axis, choice []int) {
	for _, c := range n.children {
		var slot reflect.Value
		switch c.step.kind {
		case stepField:
			slot = dst.Field(c.step.field)
		case stepIndex:
			slot = dst.Index(c.step.index)
		default:
			panic("matrix: internal error: map step outside a map")
		}
		if c.axis < 0 && (slot.Kind() == reflect.Struct || slot.Kind() == reflect.Array) {
			applyChildren(slot, c, axes, choice)
			continue
		}
		slot.Set(cow(slot, c, axes, choice))
	}
}
