package toollist

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/readmeter/readmeter/internal/nodeoracle"
)

func TestToolName(t *testing.T) {
	cc, _ := ClientProfile("claude-code")
	vs, _ := ClientProfile("vscode")
	cu, _ := ClientProfile("cursor")
	for _, tc := range []struct {
		p            *Profile
		server, tool string
		want         string
	}{
		{cc, "memory", "create_entities", "mcp__memory__create_entities"},
		{cc, "my server.v2", "read", "mcp__my_server_v2__read"},
		{cc, "héllo", "x", "mcp__h_llo__x"},
		{vs, "Memory", "create_entities", "mcp_memory_create_entities"},
		{vs, "io.github.upstash/context7", "get.docs", "mcp_io.github.ups_get_docs"},
		{vs, "a  b!!c", "t", "mcp_a_b_c_t"},
		{vs, "srv", strings.Repeat("x", 80), "mcp_srv_" + strings.Repeat("x", 56)},
		{cu, "srv", "anything.goes", "anything.goes"},
	} {
		if got := tc.p.Names.ToolName(tc.server, tc.tool); got != tc.want {
			t.Errorf("%s: ToolName(%q, %q) = %q, want %q", tc.p.Name, tc.server, tc.tool, got, tc.want)
		}
	}
}

func TestSlice16(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"abc", 2, "ab"},
		{"abc", 5, "abc"},
		{"aé€", 2, "aé"},
		{"a😀b", 3, "a😀"},
		{"a😀b", 2, "a\xed\xa0\xbd"}, // the high surrogate of U+1F600, alone
		{"a\xed\xa0\xbdb", 2, "a\xed\xa0\xbd"},
	} {
		if got := slice16(tc.s, tc.n); got != tc.want {
			t.Errorf("slice16(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}

func TestRenderTypeScript(t *testing.T) {
	c, err := parseCapture("fn.json", []byte(`{"tools":[{"name":"search","description":"Find things.\nFast.","inputSchema":{"type":"object","properties":{
		"query":{"type":"string","description":"What to find"},
		"kind":{"type":"string","enum":["a","b\""]},
		"limit":{"type":["integer","null"]},
		"tags":{"type":"array","items":{"anyOf":[{"type":"string"},{"type":"number"}]}},
		"opts":{"type":"object","properties":{"deep":{"type":"boolean","description":"Go deep"}},"required":["deep"]},
		"odd-key":{"const":3},
		"free":{}
	},"required":["query"]}},{"name":"ping","inputSchema":{"type":"object"}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	f, err := measure(c, nil)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := ClientProfile("openai")
	cf, err := MeasureClient(c, f, nil, p, ClientOptions{Server: "s"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`// Find things.
// Fast.
type search = (_: {
// What to find
query: string,
kind?: "a" | "b\"",
limit?: number | null,
tags?: (string | number)[],
opts?: {
  // Go deep
  deep: boolean,
},
"odd-key"?: 3,
free?: any,
}) => any;

`, "type ping = () => any;\n\n"}
	for i, w := range want {
		tool, _ := c.tool(i)
		got, _, _ := renderTool(tool, cf.Tools[i].Name, p)
		if string(got) != w {
			t.Errorf("tool %d rendered\n%s\nwant\n%s", i, got, w)
		}
		if cf.Tools[i].Bytes != int64(len(w)) {
			t.Errorf("tool %d: %d bytes, want %d", i, cf.Tools[i].Bytes, len(w))
		}
	}
	if wantTotal := int64(len(p.Prelude) + len(want[0]) + len(want[1]) + len(p.Postlude)); cf.Bytes != wantTotal {
		t.Errorf("total %d bytes, want %d", cf.Bytes, wantTotal)
	}
}

// clientsJS computes, for the captures named after its first arguments
// (the profiles as JSON, the server name, the tools always loaded as
// JSON), what each client reads: Node's own JSON.stringify,
// String.prototype.slice and Buffer.byteLength on the same data, with the
// TypeScript-like rendering written again in JavaScript.
const clientsJS = `
const fs = require('fs');
const [profiles, server, alwaysLoad] = [JSON.parse(process.argv[1]), process.argv[2], JSON.parse(process.argv[3])];
function toolName(r, tool) {
  if (r.ToolFrom) tool = tool.split(r.ToolFrom).join(r.ToolTo);
  let name = tool;
  if (r.Prefix) {
    let s = r.Lower ? server.toLowerCase() : server, out = '', bad = false;
    for (const ch of s) {
      if (ch.length === 1 && ch.charCodeAt(0) < 128 && r.ServerKeep.includes(ch)) { out += ch; bad = false; continue; }
      if (!r.ServerCollapse || !bad) out += '_';
      bad = true;
    }
    if (r.ServerMax) out = out.slice(0, r.ServerMax);
    name = r.Prefix + out + r.Separator + tool;
  }
  return r.Max ? name.slice(0, r.Max) : name;
}
const ident = (k) => /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(k);
function comment(text, depth) { return text.split('\n').map((l) => '  '.repeat(depth) + '// ' + l + '\n').join(''); }
function tsProps(obj, depth) {
  const req = Array.isArray(obj.required) ? obj.required.filter((r) => typeof r === 'string') : [];
  let out = '';
  for (const [k, v] of Object.entries(obj.properties)) {
    if (v && typeof v.description === 'string' && v.description !== '') out += comment(v.description, depth);
    out += '  '.repeat(depth) + (ident(k) ? k : JSON.stringify(k)) + (req.includes(k) ? '' : '?') + ': ' + tsType(v, depth) + ',\n';
  }
  return out;
}
const isObj = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
function tsType(s, depth) {
  if (!isObj(s)) return 'any';
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  if ('const' in s) return JSON.stringify(s.const);
  for (const k of ['anyOf', 'oneOf']) if (Array.isArray(s[k]) && s[k].length > 0) return s[k].map((v) => tsType(v, depth)).join(' | ');
  if (Array.isArray(s.type)) { const p = s.type.filter((t) => typeof t === 'string').map((t) => tsNamed(s, t, depth)); return p.length ? p.join(' | ') : 'any'; }
  if (typeof s.type !== 'string') return 'any';
  return tsNamed(s, s.type, depth);
}
function tsNamed(s, t, depth) {
  switch (t) {
    case 'string': case 'boolean': case 'null': return t;
    case 'number': case 'integer': return 'number';
    case 'array': { if (!isObj(s.items)) return 'any[]'; let it = tsType(s.items, depth); if (it.includes(' | ')) it = '(' + it + ')'; return it + '[]'; }
    case 'object': return isObj(s.properties) && Object.keys(s.properties).length > 0 ? '{\n' + tsProps(s, depth + 1) + '  '.repeat(depth) + '}' : 'object';
  }
  return 'any';
}
function ts(fn) {
  let out = typeof fn.description === 'string' && fn.description !== '' ? comment(fn.description, 0) : '';
  out += 'type ' + (typeof fn.name === 'string' ? fn.name : JSON.stringify(fn.name)) + ' = ';
  const p = fn.parameters;
  if (isObj(p) && isObj(p.properties) && Object.keys(p.properties).length > 0) out += '(_: {\n' + tsProps(p, 0) + '}) => any;\n\n';
  else out += '() => any;\n\n';
  return out;
}
const bytes = (s) => Buffer.byteLength(s, 'utf8');
const out = {};
for (const path of process.argv.slice(4)) {
  const msg = JSON.parse(fs.readFileSync(path, 'utf8'));
  const tools = (msg.result || msg).tools;
  out[path] = {};
  for (const p of profiles) {
    const per = [];
    let sent = 0;
    tools.forEach((t, i) => {
      const label = typeof t.name === 'string' ? t.name : 'tools[' + i + ']';
      const name = typeof t.name === 'string' ? toolName(p.Names, t.name) : label;
      const row = { name, bytes: 0, deferred: 0 };
      per.push(row);
      if (p.CombinedNameMax && typeof t.name === 'string' && server.length + t.name.length >= p.CombinedNameMax) return;
      if (p.Cap && sent >= p.Cap && p.CapKeepsFirst) return;
      sent++;
      const o = {};
      for (const f of p.Fields) {
        if (!(f.From in t)) continue;
        let v = t[f.From];
        if (f.From === 'name' && typeof v === 'string') v = name;
        if (f.From === 'description' && typeof v === 'string' && p.DescriptionCut && v.length > p.DescriptionCut) v = v.slice(0, p.DescriptionCut);
        o[f.To] = v;
      }
      row.bytes = bytes(p.Render === 'typescript' ? ts(o) : JSON.stringify(o));
      const always = alwaysLoad.includes(label) || (isObj(t._meta) && t._meta['anthropic/alwaysLoad'] === true);
      if (p.Deferral && !always) row.deferred = bytes(name) + 1;
    });
    out[path][p.Name] = per;
  }
}
process.stdout.write(JSON.stringify(out));
`

// TestClientsNode holds every profile's counts, tool by tool, to Node's on
// the test captures and on a list made to pass every cut, cap and name
// rule.
func TestClientsNode(t *testing.T) {
	node, err := nodeoracle.NodePath()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	made := filepath.Join(dir, "made.json")
	var tools []string
	long := strings.Repeat("é", 2047) + "😀 past the cut"
	for i := range 70 {
		tools = append(tools, fmt.Sprintf(`{"name":"tool.%d_%s","title":"T","description":%q,"inputSchema":{"type":"object","properties":{"q\u2028":{"type":"string","description":"x"}}},"annotations":{"readOnlyHint":true},"_meta":{"anthropic/alwaysLoad":%v}}`,
			i, strings.Repeat("n", i), long[:len(long)-i%3], i%7 == 0))
	}
	if err := os.WriteFile(made, []byte(`{"tools":[`+strings.Join(tools, ",")+`]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	paths := []string{made, "testdata/demo.json", "testdata/demo-v2.json"}
	twin, _ := filepath.Glob("../captures/twin/tools-*.json")
	for _, p := range twin {
		if !strings.Contains(p, ".init.") {
			paths = append(paths, p)
		}
	}
	server, always := "my server.io/x", []string{"tool.1_n"}
	profiles, _ := json.Marshal(Profiles)
	alwaysJSON, _ := json.Marshal(always)
	out, err := exec.Command(node, append([]string{"-e", clientsJS, string(profiles), server, string(alwaysJSON)}, paths...)...).Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	type row struct {
		Name            string
		Bytes, Deferred int64
	}
	var want map[string]map[string][]row
	if err := json.Unmarshal(out, &want); err != nil {
		t.Fatal(err)
	}
	for _, path := range paths {
		c, err := readCapture(path)
		if err != nil {
			t.Fatal(err)
		}
		f, err := measure(c, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := range Profiles {
			p := &Profiles[i]
			cf, err := MeasureClient(c, f, nil, p, ClientOptions{Server: server, AlwaysLoad: always})
			if err != nil {
				t.Fatal(err)
			}
			rows := want[path][p.Name]
			if len(rows) != len(cf.Tools) {
				t.Fatalf("%s %s: %d tools, Node %d", path, p.Name, len(cf.Tools), len(rows))
			}
			var total int64
			for j, ct := range cf.Tools {
				w := rows[j]
				if ct.Name != w.Name || ct.Bytes != w.Bytes || ct.DeferredBytes != w.Deferred {
					t.Errorf("%s %s tools[%d]: %q %d bytes, %d deferred; Node %q %d, %d", path, p.Name, j, ct.Name, ct.Bytes, ct.DeferredBytes, w.Name, w.Bytes, w.Deferred)
				}
				total += w.Bytes
			}
			if want := total + int64(len(p.Prelude)+len(p.Postlude)); cf.Bytes != want {
				t.Errorf("%s %s: %d bytes, Node %d", path, p.Name, cf.Bytes, want)
			}
		}
	}
}

// TestClientFindings: the made list passes each rule once at least, and
// the findings name the tools.
func TestClientFindings(t *testing.T) {
	var tools []string
	for i := range 130 {
		desc := "short"
		if i == 3 {
			desc = strings.Repeat("d", 2100)
		}
		tools = append(tools, fmt.Sprintf(`{"name":"t%d%s","description":%q,"inputSchema":{"type":"object"},"outputSchema":{"type":"object"}}`, i, strings.Repeat("x", 61*(i/129)), desc))
	}
	c, err := parseCapture("made.json", []byte(`{"tools":[`+strings.Join(tools, ",")+`]}`))
	if err != nil {
		t.Fatal(err)
	}
	f, _ := measure(c, nil)
	in := &Init{HasInstructions: true, Instructions: strings.Repeat("i", 3000), Chars: 3000}
	kinds := func(name string) map[string]int {
		p, _ := ClientProfile(name)
		cf, err := MeasureClient(c, f, in, p, ClientOptions{Server: "srv"})
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]int{}
		for _, fd := range cf.Findings {
			m[fd.Kind]++
		}
		return m
	}
	for name, want := range map[string]map[string]int{
		"claude-code": {"description-cut": 1, "instructions-cut": 1, "name-refused": 1, "fields-dropped": 1},
		"claude-api":  {"name-refused": 1, "fields-dropped": 1},
		"cursor":      {"tool-cap": 89, "name-filtered": 1, "fields-dropped": 1},
		"vscode":      {"tool-cap": 2, "name-cut": 1, "fields-dropped": 1},
		"gemini":      {"tool-cap": 66, "name-refused": 1, "fields-dropped": 1},
		"openai":      {"tool-cap": 2, "name-refused": 1, "fields-dropped": 1},
	} {
		got := kinds(name)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: findings %v, want %v", name, got, want)
		}
	}
}

// TestClientServerName holds which server name each client puts in front
// of a tool's name: the configuration's (ClientOptions.Server) for Claude
// Code, whatever the server says it is; for VS Code the server's own
// serverInfo.title, else its serverInfo.name, else the configuration's.
func TestClientServerName(t *testing.T) {
	c, err := openBytes("one.json", []byte(`{"tools":[{"name":"get.page","inputSchema":{"type":"object"}}]}`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	f := c.Figures
	init := func(info string) *Init {
		in, err := ParseInit("one.init.json", []byte(`{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":`+info+`}`))
		if err != nil {
			t.Fatal(err)
		}
		return in
	}
	for _, tc := range []struct {
		client string
		in     *Init
		want   string
	}{
		{"claude-code", init(`{"name":"Notion API","version":"1"}`), "mcp__notion__get.page"},
		{"claude-code", nil, "mcp__notion__get.page"},
		{"vscode", init(`{"name":"notion-api","title":"Notion","version":"1"}`), "mcp_notion_get_page"},
		{"vscode", init(`{"name":"Notion API","version":"1"}`), "mcp_notion_api_get_page"},
		{"vscode", init(`{"version":"1"}`), "mcp_notion_get_page"},
		{"vscode", nil, "mcp_notion_get_page"},
	} {
		p, _ := ClientProfile(tc.client)
		cf, err := MeasureClient(c, f, tc.in, p, ClientOptions{Server: "notion"})
		if err != nil {
			t.Fatal(err)
		}
		if got := cf.Tools[0].Name; got != tc.want {
			t.Errorf("%s, init %v: tool named %q, want %q", tc.client, tc.in != nil, got, tc.want)
		}
	}
}
