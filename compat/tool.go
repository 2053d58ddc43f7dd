package compat

import (
	"github.com/readmeter/readmeter/jsonjs"
)

// comparer collects the changes of one matched tool.
type comparer struct {
	out  *[]Change
	tool string
}

func (c *comparer) add(rule, path, old, new string) {
	*c.out = append(*c.out, Change{Rule: rule, Tool: c.tool, Path: path, Old: old, New: new})
}

// text is a value's JSON text with keys sorted, "" when absent.
func text(v jsonjs.Value, has bool) string {
	if !has {
		return ""
	}
	return canonical(jsonjs.NullValue(), v)
}

// union returns the keys of n, then those only in o, in their orders.
func union(o, n jsonjs.Value) []string {
	var keys []string
	for _, m := range n.Members() {
		keys = append(keys, m.Key)
	}
	for _, m := range o.Members() {
		if _, ok := n.Get(m.Key); !ok {
			keys = append(keys, m.Key)
		}
	}
	return keys
}

// members compares two versions of a tool, member by member.
func (c *comparer) members(o, n jsonjs.Value) {
	for _, k := range union(o, n) {
		ov, oh := o.Get(k)
		nv, nh := n.Get(k)
		if k == "name" {
			continue
		}
		switch k {
		case "annotations":
			c.annotations(ov, nv)
			continue
		case "execution":
			c.execution(ov, nv)
			continue
		case "inputSchema":
			s := newSchemas(c, ov, nv, false)
			s.compare(ov, nv, k)
			continue
		case "outputSchema":
			switch {
			case !oh:
				c.add(ruleOutputAdded, k, "", text(nv, nh))
			case !nh:
				c.add(ruleOutputRemoved, k, text(ov, oh), "")
			default:
				s := newSchemas(c, ov, nv, true)
				s.compare(ov, nv, k)
			}
			continue
		}
		ot, nt := text(ov, oh), text(nv, nh)
		if ot == nt {
			continue
		}
		rule := ruleMember
		switch k {
		case "title":
			rule = ruleTitle
		case "description":
			rule = ruleDescription
		case "_meta":
			rule = ruleMeta
		case "icons":
			rule = ruleIcons
		}
		c.add(rule, k, ot, nt)
	}
}

// hint is one of the four boolean annotations: its default when absent,
// and the value that promises less.
type hint struct {
	key       string
	def, less bool
	rule      string
}

// hints are the MCP specification's ToolAnnotations hints.
var hints = []hint{
	{"readOnlyHint", false, false, ruleReadOnly},
	{"destructiveHint", true, true, ruleDestructive},
	{"idempotentHint", false, false, ruleIdempotent},
	{"openWorldHint", true, true, ruleOpenWorld},
}

// annotations compares the annotations by what each hint means, its
// default included: an absent readOnlyHint is false, an absent
// destructiveHint true. destructiveHint and idempotentHint mean something
// only for a tool that is not read-only: when the new version says
// readOnlyHint true, a change to them is hint-moot-changed; when only the
// old one does, the old tool promised what a read-only tool does (not
// destructive, idempotent) and the new hints it gives are held to that
// (the ones it leaves out are read-only-hint-dropped's to say).
func (c *comparer) annotations(o, n jsonjs.Value) {
	ro, roh := o.Get("readOnlyHint")
	rn, rnh := n.Get("readOnlyHint")
	oldRO, newRO := boolOr(ro, roh, false), boolOr(rn, rnh, false)
	for _, k := range union(o, n) {
		ov, oh := o.Get(k)
		nv, nh := n.Get(k)
		path := join("annotations", k)
		moot := k == "destructiveHint" || k == "idempotentHint"
		if moot && newRO {
			if ot, nt := text(ov, oh), text(nv, nh); ot != nt {
				c.add(ruleHintMoot, path, ot, nt)
			}
			continue
		}
		var h *hint
		for i := range hints {
			if hints[i].key == k {
				h = &hints[i]
			}
		}
		if h == nil {
			if ot, nt := text(ov, oh), text(nv, nh); ot != nt {
				rule := ruleMember
				if k == "title" {
					rule = ruleTitle
				}
				c.add(rule, path, ot, nt)
			}
			continue
		}
		ob, nb := boolOr(ov, oh, h.def), boolOr(nv, nh, h.def)
		if moot && oldRO {
			ob = !h.less // what a read-only tool promises
		}
		if ob == nb {
			continue
		}
		rule := ruleHintMore
		if nb == h.less {
			rule = h.rule
		}
		c.add(rule, path, text(ov, oh), text(nv, nh))
	}
}

func boolOr(v jsonjs.Value, has, def bool) bool {
	if !has || v.Kind() != jsonjs.Bool {
		return def
	}
	return v.Bool()
}

// execution compares execution.taskSupport ("forbidden" when absent,
// "optional", "required") by the calls it allows: with a task, without.
func (c *comparer) execution(o, n jsonjs.Value) {
	for _, k := range union(o, n) {
		ov, oh := o.Get(k)
		nv, nh := n.Get(k)
		ot, nt := text(ov, oh), text(nv, nh)
		if ot == nt {
			continue
		}
		path := join("execution", k)
		if k != "taskSupport" {
			c.add(ruleMember, path, ot, nt)
			continue
		}
		support := func(v jsonjs.Value, has bool) string {
			if !has || v.Kind() != jsonjs.String {
				return "forbidden"
			}
			return v.Str()
		}
		os, ns := support(ov, oh), support(nv, nh)
		if os == ns {
			continue
		}
		withTask := func(s string) bool { return s != "forbidden" }
		without := func(s string) bool { return s != "required" }
		rule := ruleTaskWidened
		if withTask(os) && !withTask(ns) || without(os) && !without(ns) {
			rule = ruleTaskNarrowed
		}
		c.add(rule, path, ot, nt)
	}
}
