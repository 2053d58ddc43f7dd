package compat_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/readmeter/readmeter/compat"
	"github.com/readmeter/readmeter/jsonjs"
)

// tools parses a JSON array of tools.
func tools(t *testing.T, text string) []jsonjs.Value {
	t.Helper()
	v, err := jsonjs.Parse([]byte(text))
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	return v.Elems()
}

// in wraps input schema properties (and what follows them) in a tool t.
func in(props string) string {
	return `[{"name":"t","inputSchema":{"type":"object",` + props + `}}]`
}

// out wraps output schema properties in a tool t.
func out(props string) string {
	return `[{"name":"t","inputSchema":{"type":"object"},"outputSchema":{"type":"object",` + props + `}}]`
}

// tool wraps members in a tool t.
func tool(members string) string {
	return `[{"name":"t","inputSchema":{"type":"object"}` + members + `}]`
}

// lines writes changes as "level rule tool path old -> new".
func lines(cs []compat.Change) []string {
	var out []string
	for _, c := range cs {
		out = append(out, fmt.Sprintf("%s %s %s %s %s -> %s", c.Level, c.Rule, c.Tool, c.Path, c.Old, c.New))
	}
	return out
}

// ruleCases holds one generated pair per rule: old, new and the changes
// expected, worst first.
var ruleCases = []struct {
	rule     string
	old, new string
	want     []string
}{
	{"tool-removed", `[{"name":"a"},{"name":"b","inputSchema":{"type":"object"}}]`, `[{"name":"a"}]`,
		[]string{`breaking tool-removed b  {"inputSchema":{"type":"object"},"name":"b"} -> `}},
	{"tool-renamed", `[{"name":"a","inputSchema":{"type":"object","properties":{"x":{"type":"string"}}}}]`,
		`[{"name":"b","inputSchema":{"properties":{"x":{"type":["string"]}},"type":"object"}}]`,
		[]string{`breaking tool-renamed a  "a" -> "b"`}},
	{"tool-added", `[]`, `[{"name":"a"}]`, []string{`compatible tool-added a   -> {"name":"a"}`}},
	{"title-changed", tool(`,"title":"T"`), tool(`,"title":"U"`), []string{`compatible title-changed t title "T" -> "U"`}},
	{"description-changed", in(`"properties":{"q":{"type":"string","description":"x"}}`), in(`"properties":{"q":{"type":"string","description":"y"}}`),
		[]string{`compatible description-changed t inputSchema.properties.q.description "x" -> "y"`}},
	{"read-only-hint-dropped", tool(`,"annotations":{"readOnlyHint":true}`), tool(`,"annotations":{}`),
		[]string{`warning read-only-hint-dropped t annotations.readOnlyHint true -> `}},
	{"destructive-hint-raised", tool(`,"annotations":{"destructiveHint":false}`), tool(``),
		[]string{`warning destructive-hint-raised t annotations.destructiveHint false -> `}},
	{"idempotent-hint-dropped", tool(`,"annotations":{"idempotentHint":true}`), tool(`,"annotations":{"idempotentHint":false}`),
		[]string{`warning idempotent-hint-dropped t annotations.idempotentHint true -> false`}},
	{"open-world-hint-raised", tool(`,"annotations":{"openWorldHint":false}`), tool(`,"annotations":{"openWorldHint":true}`),
		[]string{`warning open-world-hint-raised t annotations.openWorldHint false -> true`}},
	{"hint-promises-more", tool(`,"annotations":{"readOnlyHint":false,"destructiveHint":true}`), tool(`,"annotations":{"readOnlyHint":true,"destructiveHint":false}`),
		[]string{`compatible hint-promises-more t annotations.readOnlyHint false -> true`, `compatible hint-moot-changed t annotations.destructiveHint true -> false`}},
	{"hint-moot-changed", tool(`,"annotations":{"readOnlyHint":true,"destructiveHint":false}`), tool(`,"annotations":{"readOnlyHint":true}`),
		[]string{`compatible hint-moot-changed t annotations.destructiveHint false -> `}},
	{"task-support-narrowed", tool(`,"execution":{"taskSupport":"optional"}`), tool(`,"execution":{"taskSupport":"required"}`),
		[]string{`breaking task-support-narrowed t execution.taskSupport "optional" -> "required"`}},
	{"task-support-widened", tool(``), tool(`,"execution":{"taskSupport":"optional"}`),
		[]string{`compatible task-support-widened t execution.taskSupport  -> "optional"`}},
	{"meta-changed", tool(`,"_meta":{"a":1}`), tool(`,"_meta":{"a":2}`), []string{`compatible meta-changed t _meta {"a":1} -> {"a":2}`}},
	{"icons-changed", tool(``), tool(`,"icons":[{"src":"i.png"}]`), []string{`compatible icons-changed t icons  -> [{"src":"i.png"}]`}},
	{"member-changed", tool(`,"x":1`), tool(`,"x":2`), []string{`compatible member-changed t x 1 -> 2`}},
	{"output-schema-added", tool(``), tool(`,"outputSchema":{"type":"object"}`), []string{`compatible output-schema-added t outputSchema  -> {"type":"object"}`}},
	{"output-schema-removed", tool(`,"outputSchema":{"type":"object"}`), tool(``), []string{`breaking output-schema-removed t outputSchema {"type":"object"} -> `}},

	{"param-removed", in(`"properties":{"q":{"type":"string"}}`), in(`"properties":{}`),
		[]string{`breaking param-removed t inputSchema.properties.q {"type":"string"} -> `}},
	{"required-param-added", in(`"properties":{}`), in(`"properties":{"q":{"type":"string"}},"required":["q"]`),
		[]string{`breaking required-param-added t inputSchema.properties.q  -> {"type":"string"}`}},
	{"param-made-required", in(`"properties":{"q":{"type":"string"}}`), in(`"properties":{"q":{"type":"string"}},"required":["q"]`),
		[]string{`breaking param-made-required t inputSchema.properties.q false -> true`}},
	{"optional-param-added", in(`"properties":{}`), in(`"properties":{"q":{"type":"string"}}`),
		[]string{`compatible optional-param-added t inputSchema.properties.q  -> {"type":"string"}`}},
	{"param-made-optional", in(`"properties":{"q":{}},"required":["q"]`), in(`"properties":{"q":{}}`),
		[]string{`compatible param-made-optional t inputSchema.properties.q true -> false`}},
	{"type-narrowed", in(`"properties":{"q":{"type":["string","null"]}}`), in(`"properties":{"q":{"type":"string"}}`),
		[]string{`breaking type-narrowed t inputSchema.properties.q.type ["string","null"] -> "string"`}},
	{"type-changed", in(`"properties":{"q":{"type":"string"}}`), in(`"properties":{"q":{"type":"number"}}`),
		[]string{`breaking type-changed t inputSchema.properties.q.type "string" -> "number"`}},
	{"type-widened", in(`"properties":{"q":{"type":"integer"}}`), in(`"properties":{"q":{"type":"number"}}`),
		[]string{`compatible type-widened t inputSchema.properties.q.type "integer" -> "number"`}},
	{"enum-value-removed", in(`"properties":{"q":{"enum":["a","b"]}}`), in(`"properties":{"q":{"enum":["a"]}}`),
		[]string{`breaking enum-value-removed t inputSchema.properties.q.enum "b" -> `}},
	{"enum-value-added", in(`"properties":{"q":{"const":"a"}}`), in(`"properties":{"q":{"enum":["b","a"]}}`),
		[]string{`compatible enum-value-added t inputSchema.properties.q.enum  -> "b"`}},
	{"bound-tightened", in(`"properties":{"q":{"type":"string","maxLength":10}}`), in(`"properties":{"q":{"type":"string","maxLength":5,"pattern":"^a"}}`),
		[]string{`breaking bound-tightened t inputSchema.properties.q.maxLength 10 -> 5`, `breaking bound-tightened t inputSchema.properties.q.pattern  -> "^a"`}},
	{"bound-loosened", in(`"properties":{"q":{"type":"integer","minimum":1,"maximum":9}}`), in(`"properties":{"q":{"type":"integer","minimum":0}}`),
		[]string{`compatible bound-loosened t inputSchema.properties.q.maximum 9 -> `, `compatible bound-loosened t inputSchema.properties.q.minimum 1 -> 0`}},
	{"additional-properties-closed", in(`"properties":{}`), in(`"properties":{},"additionalProperties":false`),
		[]string{`breaking additional-properties-closed t inputSchema.additionalProperties  -> false`}},
	{"additional-properties-opened", in(`"additionalProperties":false`), in(`"additionalProperties":true`),
		[]string{`compatible additional-properties-opened t inputSchema.additionalProperties false -> true`}},
	{"default-changed", in(`"properties":{"q":{"default":1}}`), in(`"properties":{"q":{"default":2}}`),
		[]string{`warning default-changed t inputSchema.properties.q.default 1 -> 2`}},
	{"note-changed", in(`"$schema":"http://json-schema.org/draft-07/schema#"`), in(`"$schema":"https://json-schema.org/draft/2020-12/schema"`),
		[]string{`compatible note-changed t inputSchema.$schema "http://json-schema.org/draft-07/schema#" -> "https://json-schema.org/draft/2020-12/schema"`}},
	{"keyword-changed", in(`"properties":{"q":{"not":{"type":"null"}}}`), in(`"properties":{"q":{"not":{"type":"string"}}}`),
		[]string{`warning keyword-changed t inputSchema.properties.q.not {"type":"null"} -> {"type":"string"}`}},

	{"output-field-removed", out(`"properties":{"a":{"type":"string"}}`), out(`"properties":{}`),
		[]string{`breaking output-field-removed t outputSchema.properties.a {"type":"string"} -> `}},
	{"output-field-made-optional", out(`"properties":{"a":{}},"required":["a"]`), out(`"properties":{"a":{}}`),
		[]string{`breaking output-field-made-optional t outputSchema.properties.a true -> false`}},
	{"output-field-added", out(`"properties":{}`), out(`"properties":{"a":{}},"required":["a"]`),
		[]string{`compatible output-field-added t outputSchema.properties.a  -> {}`}},
	{"output-field-made-required", out(`"properties":{"a":{}}`), out(`"properties":{"a":{}},"required":["a"]`),
		[]string{`compatible output-field-made-required t outputSchema.properties.a false -> true`}},
	{"output-type-changed", out(`"properties":{"a":{"type":"string"}}`), out(`"properties":{"a":{"type":["string","null"]}}`),
		[]string{`breaking output-type-changed t outputSchema.properties.a.type "string" -> ["string","null"]`}},
	{"output-type-narrowed", out(`"properties":{"a":{"type":"number"}}`), out(`"properties":{"a":{"type":"integer"}}`),
		[]string{`compatible output-type-narrowed t outputSchema.properties.a.type "number" -> "integer"`}},
	{"output-enum-value-added", out(`"properties":{"a":{"enum":["x"]}}`), out(`"properties":{"a":{"enum":["x","y"]}}`),
		[]string{`warning output-enum-value-added t outputSchema.properties.a.enum  -> "y"`}},
	{"output-enum-value-removed", out(`"properties":{"a":{"enum":["x","y"]}}`), out(`"properties":{"a":{"enum":["x"]}}`),
		[]string{`compatible output-enum-value-removed t outputSchema.properties.a.enum "y" -> `}},
	{"output-bound-loosened", out(`"properties":{"a":{"maxItems":3}}`), out(`"properties":{"a":{"maxItems":4}}`),
		[]string{`warning output-bound-loosened t outputSchema.properties.a.maxItems 3 -> 4`}},
	{"output-bound-tightened", out(`"properties":{"a":{}}`), out(`"properties":{"a":{"minLength":1}}`),
		[]string{`compatible output-bound-tightened t outputSchema.properties.a.minLength  -> 1`}},
	{"output-additional-properties-changed", out(`"additionalProperties":false`), out(`"properties":{}`),
		[]string{`compatible output-additional-properties-changed t outputSchema.additionalProperties false -> `}},
}

func TestRules(t *testing.T) {
	covered := map[string]bool{}
	for _, c := range ruleCases {
		t.Run(c.rule, func(t *testing.T) {
			got := lines(compat.Compare(tools(t, c.old), tools(t, c.new)))
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("old %s\nnew %s\n(-want +got):\n%s", c.old, c.new, diff)
			}
			found := false
			for _, ch := range compat.Compare(tools(t, c.old), tools(t, c.new)) {
				found = found || ch.Rule == c.rule
				if ch.Says() == "" {
					t.Errorf("rule %s has no sentence", ch.Rule)
				}
			}
			if !found {
				t.Errorf("no change by rule %s", c.rule)
			}
		})
		covered[c.rule] = true
	}
	for id := range compat.Rules {
		if !covered[id] {
			t.Errorf("rule %s has no generated pair in ruleCases", id)
		}
	}
}

// TestRequiredWithoutSchema holds a name in "required" that has no schema
// under "properties": the change points at the required list, with the
// name as its value, never at a property that is not there.
func TestRequiredWithoutSchema(t *testing.T) {
	cases := []struct {
		name, old, new string
		want           []string
	}{
		{"required added", in(`"properties":{"q":{}}`), in(`"properties":{"q":{}},"required":["zz"]`),
			[]string{`breaking param-made-required t inputSchema.required  -> "zz"`}},
		{"required dropped, not an identifier", in(`"required":["a b","q"]`), in(`"required":["q"]`),
			[]string{`compatible param-made-optional t inputSchema.required "a b" -> `}},
		{"in a nested object", in(`"properties":{"o":{"type":"object","properties":{}}}`), in(`"properties":{"o":{"type":"object","properties":{},"required":["zz"]}}`),
			[]string{`breaking param-made-required t inputSchema.properties.o.required  -> "zz"`}},
		{"of the output", out(`"required":["a"]`), out(`"required":[]`),
			[]string{`breaking output-field-made-optional t outputSchema.required "a" -> `}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := lines(compat.Compare(tools(t, c.old), tools(t, c.new)))
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("old %s\nnew %s\n(-want +got):\n%s", c.old, c.new, diff)
			}
		})
	}
}

// TestSameMeaning holds pairs that differ in text only: no change.
func TestSameMeaning(t *testing.T) {
	cases := []struct{ name, old, new string }{
		{"key order", `[{"name":"t","description":"d","inputSchema":{"type":"object","properties":{"a":{"type":"string","maxLength":3}},"required":["a"]}}]`,
			`[{"inputSchema":{"required":["a"],"properties":{"a":{"maxLength":3,"type":"string"}},"type":"object"},"description":"d","name":"t"}]`},
		{"type array of one", in(`"properties":{"a":{"type":"string"}}`), in(`"properties":{"a":{"type":["string"]}}`)},
		{"required and enum as sets", in(`"properties":{"a":{"enum":[1,2]},"b":{}},"required":["a","b"]`), in(`"properties":{"a":{"enum":[2,1,2]},"b":{}},"required":["b","a","a"]`)},
		{"definitions hoisted into $defs", in(`"properties":{"a":{"type":"object","properties":{"x":{"type":"integer","minimum":0}}},"b":{"type":"object","properties":{"x":{"type":"integer","minimum":0}}}}`),
			in(`"$defs":{"P":{"type":"object","properties":{"x":{"type":"integer","minimum":0}}}},"properties":{"a":{"$ref":"#/$defs/P"},"b":{"$ref":"#/$defs/P"}}`)},
		{"definitions renamed", in(`"definitions":{"P":{"type":"string"}},"properties":{"a":{"$ref":"#/definitions/P"}}`),
			in(`"$defs":{"Q~1R":{"type":["string"]}},"properties":{"a":{"$ref":"#/$defs/Q~01R"}}`)},
		{"hints at their defaults", tool(``), tool(`,"annotations":{"readOnlyHint":false,"destructiveHint":true,"idempotentHint":false,"openWorldHint":true}`)},
		{"a cycle", in(`"$defs":{"N":{"type":"object","properties":{"next":{"$ref":"#/$defs/N"}}}},"properties":{"n":{"$ref":"#/$defs/N"}}`),
			in(`"definitions":{"M":{"properties":{"next":{"$ref":"#/definitions/M"}},"type":"object"}},"properties":{"n":{"$ref":"#/definitions/M"}}`)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := lines(compat.Compare(tools(t, c.old), tools(t, c.new))); len(got) != 0 {
				t.Errorf("want no change, got %q", got)
			}
		})
	}
}

// TestCycleChanged finds a change inside a recursive definition, once.
func TestCycleChanged(t *testing.T) {
	old := in(`"$defs":{"N":{"type":"object","properties":{"v":{"type":"string"},"next":{"$ref":"#/$defs/N"}}}},"properties":{"n":{"$ref":"#/$defs/N"}}`)
	new := in(`"$defs":{"N":{"type":"object","properties":{"v":{"type":"string","maxLength":9},"next":{"$ref":"#/$defs/N"}}}},"properties":{"n":{"$ref":"#/$defs/N"}}`)
	got := lines(compat.Compare(tools(t, old), tools(t, new)))
	want := []string{`breaking bound-tightened t inputSchema.properties.n.properties.v.maxLength  -> 9`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestWorstAndCount(t *testing.T) {
	cs := compat.Compare(tools(t, `[{"name":"a"},{"name":"b","annotations":{"readOnlyHint":true}}]`), tools(t, `[{"name":"b"},{"name":"c","inputSchema":{"properties":{"x":{}}}}]`))
	w, some := compat.Worst(cs)
	if w != compat.Breaking || !some {
		t.Errorf("Worst = %v, %v; want breaking, true", w, some)
	}
	if n := compat.Count(cs); n != [3]int{1, 1, 1} {
		t.Errorf("Count = %v; want one of each", n)
	}
	if _, some := compat.Worst(nil); some {
		t.Errorf("Worst(nil) says there are changes")
	}
	for _, s := range []string{"breaking", "warning", "compatible"} {
		if l, ok := compat.ParseLevel(s); !ok || l.String() != s {
			t.Errorf("ParseLevel(%q) = %v, %v", s, l, ok)
		}
	}
	if _, ok := compat.ParseLevel("severe"); ok {
		t.Errorf("ParseLevel(severe) ok")
	}
}

// TestReadOnlyHints: destructiveHint and idempotentHint mean something
// only for a tool that is not read-only.
func TestReadOnlyHints(t *testing.T) {
	cases := []struct {
		old, new string
		want     []string
	}{
		// read-only before: the new hints are held to what it promised
		{tool(`,"annotations":{"readOnlyHint":true}`), tool(`,"annotations":{"destructiveHint":true,"idempotentHint":true}`),
			[]string{`warning destructive-hint-raised t annotations.destructiveHint  -> true`, `warning read-only-hint-dropped t annotations.readOnlyHint true -> `}},
		// read-only now: its other two hints mean nothing
		{tool(`,"annotations":{"destructiveHint":false}`), tool(`,"annotations":{"readOnlyHint":true,"destructiveHint":true}`),
			[]string{`compatible hint-promises-more t annotations.readOnlyHint  -> true`, `compatible hint-moot-changed t annotations.destructiveHint false -> true`}},
		// read-only in both, a hint left out: nothing promised less
		{tool(`,"annotations":{"readOnlyHint":true,"idempotentHint":true}`), tool(`,"annotations":{"readOnlyHint":true}`),
			[]string{`compatible hint-moot-changed t annotations.idempotentHint true -> `}},
	}
	for _, c := range cases {
		got := lines(compat.Compare(tools(t, c.old), tools(t, c.new)))
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("old %s\nnew %s\n(-want +got):\n%s", c.old, c.new, diff)
		}
	}
}

// TestRulesDocumented holds docs/breaking.md to the rules: a "#### id"
// heading for each, and none for a rule that does not exist.
func TestRulesDocumented(t *testing.T) {
	data, err := os.ReadFile("../docs/breaking.md")
	if err != nil {
		t.Fatal(err)
	}
	documented := map[string]bool{}
	for _, l := range strings.Split(string(data), "\n") {
		if id, ok := strings.CutPrefix(l, "#### "); ok {
			documented[id] = true
			if _, known := compat.Rules[id]; !known {
				t.Errorf("docs/breaking.md documents %q, which is no rule", id)
			}
		}
	}
	for id := range compat.Rules {
		if !documented[id] {
			t.Errorf("rule %s is not documented in docs/breaking.md", id)
		}
	}
}
