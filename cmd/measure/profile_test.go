//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/readmeter/readmeter/internal/nodeoracle"
	"github.com/readmeter/readmeter/toollist"
)

// TestProfileRealServers captures pinned npm servers live over stdio,
// among them one whose tools carry shared definitions they do not use
// (notion, from an OpenAPI spec) and one whose tools repeat subschemas
// within a tool (firecrawl, from zod; it starts without its API key), and
// holds measure --profile --drop-unused-defs --hoist-repeated to
// profile.js, which applies the same rules in Node and measures before and
// after.
func TestProfileRealServers(t *testing.T) {
	bin := npmBin(t)
	needNode(t)
	dir := t.TempDir()
	servers := []struct {
		name string
		args []string
	}{
		{"notion", []string{filepath.Join(bin, "notion-mcp-server")}},
		{"everything", []string{filepath.Join(bin, "mcp-server-everything"), "stdio"}},
		{"filesystem", []string{filepath.Join(bin, "mcp-server-filesystem"), dir}},
		{"firecrawl", []string{filepath.Join(bin, "firecrawl-mcp")}},
	}
	for _, s := range servers {
		t.Run(s.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), s.name+".json")
			var out, errb bytes.Buffer
			if err := run(&out, &errb, append([]string{"capture", "-o", path, "--stdio", "--"}, s.args...)); err != nil {
				t.Fatalf("capture: %v: %s", err, errb.String())
			}
			c, err := toollist.Open(path, toollist.Options{})
			if err != nil {
				t.Fatal(err)
			}
			tools := append(append([]byte{'['}, bytes.Join(c.Tools, []byte{','})...), ']')
			c.Close()
			var nts []struct {
				ModelReadBytes int64            `json:"model_read_bytes"`
				WireBytes      int64            `json:"wire_bytes"`
				Components     map[string]int64 `json:"components"`
				Drop           struct {
					Changes        int   `json:"changes"`
					ModelReadBytes int64 `json:"model_read_bytes"`
					WireBytes      int64 `json:"wire_bytes"`
				} `json:"drop_unused_defs"`
				Hoist struct {
					Changes        int   `json:"changes"`
					ModelReadBytes int64 `json:"model_read_bytes"`
					WireBytes      int64 `json:"wire_bytes"`
				} `json:"hoist_repeated"`
			}
			if err := json.Unmarshal(nodeoracle.Profile(t, tools), &nts); err != nil {
				t.Fatal(err)
			}
			want := struct {
				total       int64
				components  map[string]int64
				drop, hoist [3]int64 // model-read, wire, changes
			}{components: map[string]int64{}}
			for _, nt := range nts {
				want.total += nt.ModelReadBytes
				for k, v := range nt.Components {
					want.components[k] += v
				}
				want.drop[0] += nt.ModelReadBytes - nt.Drop.ModelReadBytes
				want.drop[1] += nt.WireBytes - nt.Drop.WireBytes
				want.drop[2] += int64(nt.Drop.Changes)
				want.hoist[0] += nt.ModelReadBytes - nt.Hoist.ModelReadBytes
				want.hoist[1] += nt.WireBytes - nt.Hoist.WireBytes
				want.hoist[2] += int64(nt.Hoist.Changes)
			}

			out.Reset()
			if err := run(&out, &errb, []string{"--json", "--profile", "--drop-unused-defs", path}); err != nil {
				t.Fatalf("measure: %v: %s", err, errb.String())
			}
			var got struct {
				ModelReadBytes int64 `json:"model_read_bytes"`
				Profile        struct {
					Components []struct {
						Name  string `json:"name"`
						Bytes int64  `json:"bytes"`
					} `json:"components"`
				} `json:"profile"`
				Drop struct {
					Wire      int64 `json:"wire_saving_bytes"`
					ModelRead int64 `json:"model_read_saving_bytes"`
					Changes   int64 `json:"changes"`
				} `json:"drop_unused_defs"`
			}
			if err := json.Unmarshal(out.Bytes(), &got); err != nil {
				t.Fatal(err)
			}
			if got.ModelReadBytes != want.total {
				t.Errorf("model-read bytes: measure %d, Node %d", got.ModelReadBytes, want.total)
			}
			comps := map[string]int64{}
			for _, c := range got.Profile.Components {
				comps[c.Name] = c.Bytes
			}
			for k, v := range want.components {
				if comps[k] != v {
					t.Errorf("%s: measure %d bytes, Node %d", k, comps[k], v)
				}
			}
			if len(comps) != len(want.components) {
				t.Errorf("components: measure %v, Node %v", comps, want.components)
			}
			if d := [3]int64{got.Drop.ModelRead, got.Drop.Wire, got.Drop.Changes}; d != want.drop {
				t.Errorf("drop_unused_defs saves (model-read, wire, changes) %v, Node %v", d, want.drop)
			}
			// hoisting alone, as Node applies it to the tools as listed
			out.Reset()
			if err := run(&out, &errb, []string{"--json", "--hoist-repeated", path}); err != nil {
				t.Fatalf("measure: %v: %s", err, errb.String())
			}
			var hoisted struct {
				Hoist struct {
					Wire      int64 `json:"wire_saving_bytes"`
					ModelRead int64 `json:"model_read_saving_bytes"`
					Changes   int64 `json:"changes"`
				} `json:"hoist_repeated"`
			}
			if err := json.Unmarshal(out.Bytes(), &hoisted); err != nil {
				t.Fatal(err)
			}
			if h := [3]int64{hoisted.Hoist.ModelRead, hoisted.Hoist.Wire, hoisted.Hoist.Changes}; h != want.hoist {
				t.Errorf("hoist_repeated saves (model-read, wire, changes) %v, Node %v", h, want.hoist)
			}
			if s.name == "notion" && want.drop[0]*2 < want.total {
				t.Errorf("notion: unused definitions are %d of %d model-read bytes, not the most of them", want.drop[0], want.total)
			}
			if s.name == "firecrawl" && want.hoist[0] == 0 {
				t.Errorf("firecrawl: hoisting its repeated subschemas saves nothing of %d model-read bytes", want.total)
			}
			t.Logf("%s: %d model-read bytes; drop_unused_defs saves %d, hoist_repeated %d", s.name, want.total, want.drop[0], want.hoist[0])
		})
	}
}
