package toollist

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/readmeter/readmeter/internal/units"
	"github.com/readmeter/readmeter/jsonjs"
)

// referenceFigures measures tools the slow, obvious way: each tool parsed
// whole into a jsonjs.Value, and JSON.stringify of the names that are
// not strings, by index. Measure's scanner must agree with them.
func referenceFigures(t *testing.T, c *Capture) ([]ToolFigures, map[int]string) {
	t.Helper()
	var out []ToolFigures
	names := map[int]string{} // JSON.stringify of the names that are not strings
	for i := range c.Tools {
		tool, err := c.tool(i)
		if err != nil {
			t.Fatalf("tools[%d]: %v", i, err)
		}
		tf := ToolFigures{Index: i, ModelReadBytes: ModelReadBytes(tool)}
		tf.ModelReadTokens = units.Tokens(tf.ModelReadBytes)
		if d, ok := tool.Get("description"); ok && d.Kind() == jsonjs.String {
			tf.DescriptionChars = jsonjs.Len16(d.Str())
			tf.DescriptionBytes = int64(jsonjs.ByteLen(d.Str()))
		}
		if s, ok := tool.Get("inputSchema"); ok {
			tf.FieldDescriptionBytes = referenceFieldDescriptions(s)
		}
		tf.Name, tf.HasName = toolLabel(tool, i)
		if n, ok := tool.Get("name"); ok {
			tf.HasName = true
			if n.Kind() != jsonjs.String {
				names[i] = string(jsonjs.Stringify(n))
			}
		} else {
			tf.HasName = false
		}
		out = append(out, tf)
	}
	return out, names
}

func referenceFieldDescriptions(v jsonjs.Value) int64 {
	var n int64
	switch v.Kind() {
	case jsonjs.Object:
		for _, m := range v.Members() {
			if m.Key == "description" && m.Value.Kind() == jsonjs.String {
				n += int64(jsonjs.ByteLen(m.Value.Str()))
				continue
			}
			n += referenceFieldDescriptions(m.Value)
		}
	case jsonjs.Array:
		for _, e := range v.Elems() {
			n += referenceFieldDescriptions(e)
		}
	}
	return n
}

func checkAgainstReference(t *testing.T, data []byte) {
	c, err := parseCapture("f", data)
	if err != nil {
		return
	}
	f, err := measure(c, nil)
	if err != nil {
		t.Fatalf("Measure refuses what Parse accepted: %v", err)
	}
	want, names := referenceFigures(t, c)
	for i, w := range want {
		g := f.PerTool[i]
		if g.ModelReadBytes != w.ModelReadBytes || g.DescriptionChars != w.DescriptionChars ||
			g.DescriptionBytes != w.DescriptionBytes || g.FieldDescriptionBytes != w.FieldDescriptionBytes ||
			g.Name != w.Name || g.HasName != w.HasName || f.NameJSON[i] != names[i] {
			t.Fatalf("tools[%d]: scanner %+v\nreference %+v\ntool %s", i, g, w, c.Tools[i])
		}
	}
}

// FuzzMeasure checks Measure's scanner against whole parsing on any text
// that Parse accepts as a capture.
func FuzzMeasure(f *testing.F) {
	for _, pat := range []string{"testdata/*", "testdata/adversarial/*", "../jsonjs/testdata/corpus/*"} {
		files, _ := filepath.Glob(pat)
		for _, p := range files {
			if data, err := os.ReadFile(p); err == nil && len(data) < 64<<10 {
				f.Add(data)
			}
		}
	}
	f.Add([]byte(`{"tools":[{"n\u0061me":"a","name":"b","description":"x","descr\u0069ption":"yy","inputSchema":{"description":"a","description":{"description":"b\\\""},"p":[{"description":"\ud800"}]}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkAgainstReference(t, data)
	})
}

// TestScannerAgainstReference runs the fuzz seeds as a plain test.
func TestScannerAgainstReference(t *testing.T) {
	for _, pat := range []string{"testdata/*", "testdata/adversarial/*", "../jsonjs/testdata/corpus/*"} {
		files, _ := filepath.Glob(pat)
		for _, p := range files {
			data, err := os.ReadFile(p)
			if err != nil {
				continue
			}
			t.Run(p, func(t *testing.T) { checkAgainstReference(t, data) })
		}
	}
}
