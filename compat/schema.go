package compat

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/readmeter/readmeter/jsonjs"
)

// schemas compares two versions of one schema (a tool's inputSchema or
// outputSchema), each with its root for resolving local $refs.
type schemas struct {
	*comparer
	oroot, nroot jsonjs.Value
	// output: the schema describes what the server sends, so the
	// direction of every rule turns round.
	output bool
	// seen holds the pairs of $refs being compared, so that a cycle is
	// followed once.
	seen map[[2]string]bool
}

func newSchemas(c *comparer, o, n jsonjs.Value, output bool) *schemas {
	return &schemas{comparer: c, oroot: o, nroot: n, output: output, seen: map[[2]string]bool{}}
}

// resolve follows v's local $ref (a JSON pointer into root), and the
// target's, and returns the schema reached, merged with v's other
// keywords, and the first $ref ("" when v has none). A $ref that does not
// resolve is left as it is.
func resolve(root, v jsonjs.Value) (jsonjs.Value, string) {
	first := ""
	for range 32 {
		r, ok := v.Get("$ref")
		if !ok || r.Kind() != jsonjs.String || !strings.HasPrefix(r.Str(), "#") {
			break
		}
		t, ok := pointer(root, r.Str()[1:])
		if !ok {
			break
		}
		if first == "" {
			first = r.Str()
		}
		v = merge(t, v)
	}
	return v, first
}

// merge returns target with the keywords of from other than $ref that
// target lacks.
func merge(target, from jsonjs.Value) jsonjs.Value {
	if target.Kind() == jsonjs.Bool && target.Bool() {
		target = jsonjs.ObjectValue(nil)
	}
	if target.Kind() != jsonjs.Object {
		return target
	}
	ms := append([]jsonjs.Member(nil), target.Members()...)
	for _, m := range from.Members() {
		if _, ok := target.Get(m.Key); !ok && m.Key != "$ref" {
			ms = append(ms, m)
		}
	}
	return jsonjs.ObjectValue(ms)
}

// pointer resolves a JSON pointer (RFC 6901) in root.
func pointer(root jsonjs.Value, p string) (jsonjs.Value, bool) {
	if p == "" {
		return root, true
	}
	if p[0] != '/' {
		return root, false
	}
	v := root
	for _, tok := range strings.Split(p[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch v.Kind() {
		case jsonjs.Object:
			n, ok := v.Get(tok)
			if !ok {
				return v, false
			}
			v = n
		case jsonjs.Array:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(v.Elems()) {
				return v, false
			}
			v = v.Elems()[i]
		default:
			return v, false
		}
	}
	return v, true
}

// canonical is v's JSON text by meaning: keys sorted; with a root (an
// object), local $refs resolved (a cycle written as its $ref), a type
// array of one written as that type, and required as a sorted set.
func canonical(root, v jsonjs.Value) string {
	return string(jsonjs.Stringify(canon(root, v, nil)))
}

func canon(root, v jsonjs.Value, stack []string) jsonjs.Value {
	schema := root.Kind() == jsonjs.Object
	if schema && v.Kind() == jsonjs.Object {
		if r, ok := v.Get("$ref"); ok && r.Kind() == jsonjs.String {
			for _, s := range stack {
				if s == r.Str() {
					return jsonjs.ObjectValue([]jsonjs.Member{{Key: "$ref", Value: r}})
				}
			}
			if t, first := resolve(root, v); first != "" {
				stack = append(stack, r.Str())
				v = t
			}
		}
	}
	switch v.Kind() {
	case jsonjs.Array:
		es := make([]jsonjs.Value, len(v.Elems()))
		for i, e := range v.Elems() {
			es[i] = canon(root, e, stack)
		}
		return jsonjs.ArrayValue(es)
	case jsonjs.Object:
	default:
		return v
	}
	var ms []jsonjs.Member
	for _, m := range v.Members() {
		val := m.Value
		if schema {
			switch m.Key {
			case "$defs", "definitions":
				continue
			case "type":
				if val.Kind() == jsonjs.Array && len(val.Elems()) == 1 {
					val = val.Elems()[0]
				}
			case "required":
				ms = append(ms, jsonjs.Member{Key: m.Key, Value: strSet(val)})
				continue
			}
		}
		ms = append(ms, jsonjs.Member{Key: m.Key, Value: canon(root, val, stack)})
	}
	sort.Slice(ms, func(a, b int) bool { return ms[a].Key < ms[b].Key })
	return jsonjs.ObjectValue(ms)
}

// strSet returns an array of strings sorted and without repeats.
func strSet(v jsonjs.Value) jsonjs.Value {
	if v.Kind() != jsonjs.Array {
		return v
	}
	seen := map[string]bool{}
	var ss []string
	for _, e := range v.Elems() {
		s := string(jsonjs.Stringify(e))
		if !seen[s] {
			seen[s] = true
			ss = append(ss, s)
		}
	}
	sort.Strings(ss)
	es := make([]jsonjs.Value, len(ss))
	for i, s := range ss {
		es[i], _ = jsonjs.Parse([]byte(s))
	}
	return jsonjs.ArrayValue(es)
}

// asObject makes an absent schema or true the empty schema.
func asObject(v jsonjs.Value, has bool) jsonjs.Value {
	if !has || v.Kind() == jsonjs.Bool && v.Bool() {
		return jsonjs.ObjectValue(nil)
	}
	return v
}

// pick returns the input rule, or the output one when s is an output
// schema.
func (s *schemas) pick(in, out string) string {
	if s.output {
		return out
	}
	return in
}

// narrowed adds the rule for a change that refuses what was accepted: in
// an input schema it breaks calls, in an output schema it is compatible.
func (s *schemas) narrowed(path, o, n string) {
	s.add(s.pick(ruleBoundTightened, ruleOutBoundTightened), path, o, n)
}

// widened adds the rule for a change that accepts more.
func (s *schemas) widened(path, o, n string) {
	s.add(s.pick(ruleBoundLoosened, ruleOutBoundLoosened), path, o, n)
}

func (s *schemas) otext(v jsonjs.Value, has bool) string {
	if !has {
		return ""
	}
	return canonical(s.oroot, v)
}

func (s *schemas) ntext(v jsonjs.Value, has bool) string {
	if !has {
		return ""
	}
	return canonical(s.nroot, v)
}

// compare compares two versions of a schema at path.
func (s *schemas) compare(o, n jsonjs.Value, path string) {
	o, oref := resolve(s.oroot, o)
	n, nref := resolve(s.nroot, n)
	if oref != "" || nref != "" {
		k := [2]string{oref, nref}
		if s.seen[k] {
			return
		}
		s.seen[k] = true
		defer delete(s.seen, k)
	}
	if s.otext(o, true) == s.ntext(n, true) {
		return
	}
	ofalse := o.Kind() == jsonjs.Bool && !o.Bool()
	nfalse := n.Kind() == jsonjs.Bool && !n.Bool()
	switch {
	case nfalse:
		s.narrowed(path, s.otext(o, true), "false")
		return
	case ofalse:
		s.widened(path, "false", s.ntext(n, true))
		return
	}
	o, n = asObject(o, true), asObject(n, true)
	if o.Kind() != jsonjs.Object || n.Kind() != jsonjs.Object {
		s.add(ruleKeyword, path, s.otext(o, true), s.ntext(n, true))
		return
	}
	done := map[string]bool{"$ref": true, "$defs": true, "definitions": true}
	s.types(o, n, path, done)
	s.enums(o, n, path, done)
	s.bounds(o, n, path, done)
	s.properties(o, n, path, done)
	s.additional(o, n, path, done)
	s.subschemas(o, n, path, done)
	for _, k := range union(o, n) {
		if done[k] {
			continue
		}
		ov, oh := o.Get(k)
		nv, nh := n.Get(k)
		ot, nt := s.otext(ov, oh), s.ntext(nv, nh)
		if ot == nt {
			continue
		}
		rule := ruleKeyword
		switch k {
		case "description":
			rule = ruleDescription
		case "title":
			rule = ruleTitle
		case "default":
			rule = s.pick(ruleDefault, ruleNote)
		case "examples", "$comment", "deprecated", "readOnly", "writeOnly", "$schema", "$id", "$anchor", "contentMediaType", "contentEncoding":
			rule = ruleNote
		}
		s.add(rule, join(path, k), ot, nt)
	}
}

// typeSet returns the types a schema's type keyword names, nil when it
// names none (any type), and whether the keyword is readable.
func typeSet(v jsonjs.Value) (map[string]bool, bool) {
	t, ok := v.Get("type")
	if !ok {
		return nil, true
	}
	set := map[string]bool{}
	switch t.Kind() {
	case jsonjs.String:
		set[t.Str()] = true
	case jsonjs.Array:
		for _, e := range t.Elems() {
			if e.Kind() != jsonjs.String {
				return nil, false
			}
			set[e.Str()] = true
		}
	default:
		return nil, false
	}
	return set, true
}

// accepts reports whether every value of type t is of one of the types
// in set (nil: any type).
func accepts(set map[string]bool, t string) bool {
	return set == nil || set[t] || t == "integer" && set["number"]
}

// within reports whether every type of a is accepted by b.
func within(a, b map[string]bool) bool {
	if a == nil {
		return b == nil
	}
	for t := range a {
		if !accepts(b, t) {
			return false
		}
	}
	return true
}

func (s *schemas) types(o, n jsonjs.Value, path string, done map[string]bool) {
	done["type"] = true
	ov, oh := o.Get("type")
	nv, nh := n.Get("type")
	ot, nt := s.otext(ov, oh), s.ntext(nv, nh)
	os, ok1 := typeSet(o)
	ns, ok2 := typeSet(n)
	if !ok1 || !ok2 {
		if ot != nt {
			s.add(ruleKeyword, join(path, "type"), ot, nt)
		}
		return
	}
	wider, narrower := within(os, ns), within(ns, os)
	p := join(path, "type")
	switch {
	case wider && narrower:
	case wider:
		s.add(s.pick(ruleTypeWidened, ruleOutTypeChanged), p, ot, nt)
	case narrower:
		s.add(s.pick(ruleTypeNarrowed, ruleOutTypeNarrowed), p, ot, nt)
	default:
		s.add(s.pick(ruleTypeChanged, ruleOutTypeChanged), p, ot, nt)
	}
}

// enumSet returns the allowed values of enum and const (their JSON
// text), nil when there is neither, and the keyword's name.
func (s *schemas) enumSet(root, v jsonjs.Value) (map[string]bool, []string, string) {
	var set map[string]bool
	var order []string
	kw := "enum"
	addv := func(e jsonjs.Value) {
		t := canonical(root, e)
		if !set[t] {
			set[t] = true
			order = append(order, t)
		}
	}
	if e, ok := v.Get("enum"); ok && e.Kind() == jsonjs.Array {
		set = map[string]bool{}
		for _, x := range e.Elems() {
			addv(x)
		}
	}
	if c, ok := v.Get("const"); ok {
		if set == nil {
			set, kw = map[string]bool{}, "const"
			addv(c)
		} else {
			t := canonical(root, c)
			set = map[string]bool{t: set[t]}
			order = []string{t}
		}
	}
	return set, order, kw
}

func (s *schemas) enums(o, n jsonjs.Value, path string, done map[string]bool) {
	done["enum"], done["const"] = true, true
	os, oorder, okw := s.enumSet(s.oroot, o)
	ns, norder, nkw := s.enumSet(s.nroot, n)
	kw := nkw
	if ns == nil {
		kw = okw
	}
	p := join(path, kw)
	removed, added := s.pick(ruleEnumRemoved, ruleOutEnumRemoved), s.pick(ruleEnumAdded, ruleOutEnumAdded)
	switch {
	case os == nil && ns == nil:
	case os == nil:
		s.add(removed, p, "", "["+strings.Join(norder, ",")+"]")
	case ns == nil:
		s.add(added, p, "["+strings.Join(oorder, ",")+"]", "")
	default:
		for _, t := range oorder {
			if !ns[t] {
				s.add(removed, p, t, "")
			}
		}
		for _, t := range norder {
			if !os[t] {
				s.add(added, p, "", t)
			}
		}
	}
}

// The bound keywords: a larger maximum, or a smaller minimum, accepts
// more.
var (
	maxima = []string{"maxLength", "maxItems", "maxProperties", "maximum", "exclusiveMaximum", "maxContains"}
	minima = []string{"minLength", "minItems", "minProperties", "minimum", "exclusiveMinimum", "minContains"}
)

func (s *schemas) bounds(o, n jsonjs.Value, path string, done map[string]bool) {
	num := func(v jsonjs.Value, k string) (float64, bool, bool) {
		x, ok := v.Get(k)
		if !ok {
			return 0, false, true
		}
		return x.Num(), true, x.Kind() == jsonjs.Number
	}
	bound := func(k string, tighter func(o, n float64) bool) {
		done[k] = true
		ov, oh, ook := num(o, k)
		nv, nh, nok := num(n, k)
		ovv, _ := o.Get(k)
		nvv, _ := n.Get(k)
		ot, nt := s.otext(ovv, oh), s.ntext(nvv, nh)
		p := join(path, k)
		switch {
		case ot == nt:
		case !ook || !nok:
			s.add(ruleKeyword, p, ot, nt)
		case !oh || nh && tighter(ov, nv):
			s.narrowed(p, ot, nt)
		case !nh || tighter(nv, ov):
			s.widened(p, ot, nt)
		}
	}
	for _, k := range maxima {
		bound(k, func(o, n float64) bool { return n < o })
	}
	for _, k := range minima {
		bound(k, func(o, n float64) bool { return n > o })
	}
	bound("multipleOf", func(o, n float64) bool { return math.Mod(o, n) != 0 })
	// uniqueItems: true refuses repeats.
	done["uniqueItems"] = true
	ou, oh := o.Get("uniqueItems")
	nu, nh := n.Get("uniqueItems")
	switch ob, nb := boolOr(ou, oh, false), boolOr(nu, nh, false); {
	case nb && !ob:
		s.narrowed(join(path, "uniqueItems"), s.otext(ou, oh), s.ntext(nu, nh))
	case ob && !nb:
		s.widened(join(path, "uniqueItems"), s.otext(ou, oh), s.ntext(nu, nh))
	}
	// pattern and format: one added or changed refuses what it did not
	// name; removed, it refuses nothing.
	for _, k := range []string{"pattern", "format"} {
		done[k] = true
		ov, oh := o.Get(k)
		nv, nh := n.Get(k)
		ot, nt := s.otext(ov, oh), s.ntext(nv, nh)
		switch {
		case ot == nt:
		case !nh:
			s.widened(join(path, k), ot, nt)
		case !oh || !s.output:
			s.narrowed(join(path, k), ot, nt)
		default: // an output's pattern changed: values it never had may come
			s.widened(join(path, k), ot, nt)
		}
	}
}

// names returns a schema's property names in order and its properties.
func props(v jsonjs.Value) jsonjs.Value {
	p, ok := v.Get("properties")
	if !ok || p.Kind() != jsonjs.Object {
		return jsonjs.ObjectValue(nil)
	}
	return p
}

func required(v jsonjs.Value) map[string]bool {
	set := map[string]bool{}
	r, _ := v.Get("required")
	for _, e := range r.Elems() {
		if e.Kind() == jsonjs.String {
			set[e.Str()] = true
		}
	}
	return set
}

func (s *schemas) properties(o, n jsonjs.Value, path string, done map[string]bool) {
	done["properties"], done["required"] = true, true
	op, np := props(o), props(n)
	or, nr := required(o), required(n)
	base := join(path, "properties")
	seen := map[string]bool{}
	for _, k := range union(op, np) {
		seen[k] = true
		ov, oh := op.Get(k)
		nv, nh := np.Get(k)
		p := join(base, k)
		switch {
		case !oh && nr[k]:
			s.add(s.pick(ruleRequiredAdded, ruleOutFieldAdded), p, "", s.ntext(nv, nh))
			continue
		case !oh:
			s.add(s.pick(ruleOptionalAdded, ruleOutFieldAdded), p, "", s.ntext(nv, nh))
			continue
		case !nh:
			s.add(s.pick(ruleParamRemoved, ruleOutFieldRemoved), p, s.otext(ov, oh), "")
			continue
		}
		s.compare(ov, nv, p)
		s.requiredChange(p, or[k], nr[k])
	}
	// names required without a schema of their own: no property to point
	// at, so the change is of the required list, the name its value
	var rest []string
	for k := range or {
		rest = append(rest, k)
	}
	for k := range nr {
		if !or[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	req := join(path, "required")
	for _, k := range rest {
		if seen[k] {
			continue
		}
		switch {
		case nr[k] && !or[k]:
			s.add(s.pick(ruleMadeRequired, ruleOutMadeRequired), req, "", quote(k))
		case or[k] && !nr[k]:
			s.add(s.pick(ruleMadeOptional, ruleOutMadeOptional), req, quote(k), "")
		}
	}
}

func (s *schemas) requiredChange(p string, was, is bool) {
	switch {
	case is && !was:
		s.add(s.pick(ruleMadeRequired, ruleOutMadeRequired), p, "false", "true")
	case was && !is:
		s.add(s.pick(ruleMadeOptional, ruleOutMadeOptional), p, "true", "false")
	}
}

// additional compares additionalProperties and unevaluatedProperties:
// open (absent, true or {}), closed (false) or a schema.
func (s *schemas) additional(o, n jsonjs.Value, path string, done map[string]bool) {
	for _, k := range []string{"additionalProperties", "unevaluatedProperties"} {
		done[k] = true
		ov, oh := o.Get(k)
		nv, nh := n.Get(k)
		ot, nt := s.otext(ov, oh), s.ntext(nv, nh)
		if ot == nt {
			continue
		}
		closed := func(v jsonjs.Value, has bool) bool { return has && v.Kind() == jsonjs.Bool && !v.Bool() }
		p := join(path, k)
		oc, nc := closed(ov, oh), closed(nv, nh)
		switch {
		case s.output && oc != nc:
			s.add(ruleOutAdditional, p, ot, nt)
		case nc:
			s.add(ruleAdditionalClosed, p, ot, nt)
		case oc:
			s.add(ruleAdditionalOpened, p, ot, nt)
		default:
			s.compare(asObject(ov, oh), asObject(nv, nh), p)
		}
	}
}

// subschemas compares items and the applicators: element by element
// when both have as many.
func (s *schemas) subschemas(o, n jsonjs.Value, path string, done map[string]bool) {
	done["items"] = true
	oi, oh := o.Get("items")
	ni, nh := n.Get("items")
	if (oh || nh) && oi.Kind() != jsonjs.Array && ni.Kind() != jsonjs.Array {
		s.compare(asObject(oi, oh), asObject(ni, nh), join(path, "items"))
	} else {
		done["items"] = false
	}
	for _, k := range []string{"prefixItems", "anyOf", "oneOf", "allOf"} {
		ov, _ := o.Get(k)
		nv, _ := n.Get(k)
		if ov.Kind() != jsonjs.Array || nv.Kind() != jsonjs.Array || len(ov.Elems()) != len(nv.Elems()) {
			continue
		}
		done[k] = true
		for i := range nv.Elems() {
			s.compare(ov.Elems()[i], nv.Elems()[i], join(path, k)+"["+strconv.Itoa(i)+"]")
		}
	}
}
