package toollist_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/readmeter/readmeter/internal/nodeoracle"
	"github.com/readmeter/readmeter/jsonjs"
	"github.com/readmeter/readmeter/toollist"
)

// sdkOrderJS parses each capture's tools as a client built on the MCP
// TypeScript SDK does (Client.listTools: ListToolsResultSchema.parse) and
// prints, a line per tool, its inputSchema and outputSchema as
// JSON.stringify writes them.
const sdkOrderJS = `
import { ListToolsResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { readFileSync } from "node:fs";
for (const path of process.argv.slice(1)) {
  const doc = JSON.parse(readFileSync(path, "utf8"));
  const result = doc.result ?? doc;
  for (const t of ListToolsResultSchema.parse(result).tools) {
    console.log(JSON.stringify([t.inputSchema, t.outputSchema ?? null]));
  }
}
`

// TestSDKKeyOrderNode holds --sdk-key-order to the TypeScript SDK itself
// (the version pinned in testdata/npm): each schema the transform writes
// is, byte for byte, what the SDK's parse hands on.
func TestSDKKeyOrderNode(t *testing.T) {
	node, err := nodeoracle.NodePath()
	if err != nil {
		t.Fatal(err)
	}
	npm, _ := filepath.Abs("../testdata/npm")
	if _, err := os.Stat(filepath.Join(npm, "node_modules", "@modelcontextprotocol", "sdk")); err != nil {
		t.Skip("testdata/npm/node_modules holds no SDK: run make npm-deps")
	}
	made := filepath.Join(t.TempDir(), "made.json")
	if err := os.WriteFile(made, []byte(`{"tools":[
{"name":"a","inputSchema":{"required":["q"],"$schema":"x","properties":{"q":{"description":"d","type":"string"}},"type":"object","additionalProperties":false},"outputSchema":{"properties":{},"type":"object"}},
{"name":"b","inputSchema":{"type":"object"}},
{"name":"c","inputSchema":{"$defs":{"x":{"type":"string"}},"type":"object","properties":{"p":{"$ref":"#/$defs/x"}}}}
]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	paths := []string{made, abs(t, "testdata/demo.json"), abs(t, "testdata/demo-v2.json")}
	twin, _ := filepath.Glob("../captures/twin/tools-*.json")
	for _, p := range twin {
		if !strings.Contains(p, ".init.") {
			paths = append(paths, abs(t, p))
		}
	}
	cmd := exec.Command(node, append([]string{"--input-type=module", "-e", sdkOrderJS}, paths...)...)
	cmd.Dir = npm
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	want := bufio.NewScanner(bytes.NewReader(out))
	want.Buffer(nil, 1<<24)
	n, moved := 0, 0
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Result *struct{ Tools []json.RawMessage } `json:"result"`
			Tools  []json.RawMessage
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		tools := doc.Tools
		if doc.Result != nil {
			tools = doc.Result.Tools
		}
		for _, raw := range tools {
			tool, err := jsonjs.Parse(raw)
			if err != nil {
				t.Fatal(err)
			}
			got, changes, err := toollist.Apply(toollist.SDKKeyOrder(), tool, "")
			if err != nil {
				t.Fatal(err)
			}
			moved += changes
			in, _ := got.Get("inputSchema")
			outSchema, ok := got.Get("outputSchema")
			line := "[" + string(jsonjs.Stringify(in)) + ",null]"
			if ok {
				line = "[" + string(jsonjs.Stringify(in)) + "," + string(jsonjs.Stringify(outSchema)) + "]"
			}
			if !want.Scan() {
				t.Fatalf("%s: node printed fewer tools", p)
			}
			if line != want.Text() {
				t.Errorf("%s: tool %d:\n got %s\nwant %s", p, n, line, want.Text())
			}
			n++
		}
	}
	if want.Scan() {
		t.Errorf("node printed more tools than the captures hold")
	}
	if moved == 0 {
		t.Errorf("no schema moved in %d tools: the test shows nothing", n)
	}
}

func abs(t *testing.T, p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
