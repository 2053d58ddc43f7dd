//go:build unix

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/readmeter/readmeter/compat"
)

// versionsDir is where the earlier published versions of the npm servers
// are installed (testdata/npm/versions, by make npm-deps).
func versionsDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("../../testdata/npm/versions/node_modules")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "server-filesystem-2025", "package.json")); err != nil {
		t.Fatalf("the earlier npm server versions are not installed (run make npm-deps): %v", err)
	}
	return dir
}

// TestRealVersionPairs captures two published versions of each of three
// npm MCP servers live over stdio (the one pinned in testdata/npm/versions
// and the current one in testdata/npm), and holds measure diff's
// classification of the change to the list written below. Every warning
// and breaking change is listed; compatible changes are counted by rule.
// Each comment says what changed between the versions, as a reviewer
// reading the two captures would see it.
func TestRealVersionPairs(t *testing.T) {
	bin := npmBin(t)
	old := versionsDir(t)
	node := needNode(t)
	type pair struct {
		name     string
		old, new func(dir string) []string // the command after --stdio --
		severe   []string                  // "level rule tool path", worst first
		fine     map[string]int            // compatible changes by rule
	}
	pairs := []pair{
		{
			// server-filesystem 2025.11.25 -> 2026.8.31: read_media_file's
			// output items became anyOf [a media item, an embedded
			// resource]: the old item's type (object), its members type,
			// data and mimeType are no longer promised at the old place,
			// so a client reading content[i].data breaks (breaking), and
			// the anyOf itself is a keyword the rules leave to review
			// (warning). move_file now says destructiveHint true (it
			// overwrites): a warning. Every tool gained openWorldHint
			// false (14 tools, compatible), read_media_file's description
			// changed, and its item lost additionalProperties false. The
			// input schemas no longer close additionalProperties (13 tools
			// and edit_file's edits items): calls may pass more.
			name: "filesystem",
			old: func(dir string) []string {
				return []string{node, filepath.Join(old, "server-filesystem-2025", "dist", "index.js"), dir}
			},
			new: func(dir string) []string { return []string{filepath.Join(bin, "mcp-server-filesystem"), dir} },
			severe: []string{
				"breaking output-type-changed read_media_file outputSchema.properties.content.items.type",
				"breaking output-field-removed read_media_file outputSchema.properties.content.items.properties.type",
				"breaking output-field-removed read_media_file outputSchema.properties.content.items.properties.data",
				"breaking output-field-removed read_media_file outputSchema.properties.content.items.properties.mimeType",
				"warning keyword-changed read_media_file outputSchema.properties.content.items.anyOf",
				"warning destructive-hint-raised move_file annotations.destructiveHint",
			},
			fine: map[string]int{"hint-promises-more": 14, "description-changed": 1, "output-additional-properties-changed": 1, "additional-properties-opened": 14},
		},
		{
			// server-memory 2025.8.4 -> 2026.8.31: nothing a caller relies
			// on moved. Each of the 9 tools gained a title, an
			// outputSchema and a $schema in its input schema; the
			// annotations now promise more (read-only, not destructive,
			// idempotent, closed world), 18 hints in all; the 3 read-only
			// tools' destructiveHint and idempotentHint mean nothing (6).
			name: "memory",
			old: func(dir string) []string {
				return []string{"env", "MEMORY_FILE_PATH=" + filepath.Join(dir, "memory.jsonl"), node, filepath.Join(old, "server-memory-2025", "dist", "index.js")}
			},
			new: func(dir string) []string {
				return []string{"env", "MEMORY_FILE_PATH=" + filepath.Join(dir, "memory.jsonl"), filepath.Join(bin, "mcp-server-memory")}
			},
			fine: map[string]int{"title-changed": 9, "output-schema-added": 9, "note-changed": 9, "hint-promises-more": 18, "hint-moot-changed": 6},
		},
		{
			// server-everything 2025.12.18 -> 2026.8.31: the tools were
			// renamed to kebab-case names with new schemas (add became
			// get-sum, printEnv get-env...) and some were dropped (zip,
			// sampleLLM): the 10 old names are gone, breaking every call
			// by them; 12 tools are new. echo stayed, with a title, a new
			// description, its input schema no longer closed, and its hints
			// now saying read-only and closed world (its destructiveHint
			// and idempotentHint, on a read-only tool, mean nothing).
			name: "everything",
			old: func(string) []string {
				return []string{node, filepath.Join(old, "server-everything-2025", "dist", "index.js"), "stdio"}
			},
			new: func(string) []string { return []string{filepath.Join(bin, "mcp-server-everything"), "stdio"} },
			severe: []string{
				"breaking tool-removed add ",
				"breaking tool-removed longRunningOperation ",
				"breaking tool-removed printEnv ",
				"breaking tool-removed sampleLLM ",
				"breaking tool-removed getTinyImage ",
				"breaking tool-removed annotatedMessage ",
				"breaking tool-removed getResourceReference ",
				"breaking tool-removed getResourceLinks ",
				"breaking tool-removed structuredContent ",
				"breaking tool-removed zip ",
			},
			fine: map[string]int{"tool-added": 12, "title-changed": 1, "description-changed": 1, "additional-properties-opened": 1, "hint-promises-more": 2, "hint-moot-changed": 2},
		},
	}
	for _, p := range pairs {
		t.Run(p.name, func(t *testing.T) {
			capture := func(which string, cmd func(string) []string) string {
				dir := t.TempDir()
				root := filepath.Join(dir, "root")
				if err := os.Mkdir(root, 0o755); err != nil {
					t.Fatal(err)
				}
				// Declaring nothing: the counts below are of the tools a
				// server lists to a client without roots or elicitation.
				code, _, stderr := runCaptureIn(t, dir, append([]string{"--capabilities", "{}", "--stdio", "--"}, cmd(root)...)...)
				if code != 0 {
					t.Fatalf("capture of the %s version: exit %d: %s", which, code, stderr)
				}
				return filepath.Join(dir, "tools.json")
			}
			o, n := capture("old", p.old), capture("new", p.new)
			r, err := classify(o, n, &breakingFlags{})
			if err != nil {
				t.Fatal(err)
			}
			var severe []string
			fine := map[string]int{}
			for _, c := range r.changes {
				if c.Level == compat.Compatible {
					fine[c.Rule]++
					continue
				}
				severe = append(severe, fmt.Sprintf("%s %s %s %s", c.Level, c.Rule, c.Tool, c.Path))
			}
			if diff := cmp.Diff(p.severe, severe); diff != "" {
				t.Errorf("warning and breaking changes (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(p.fine, fine); diff != "" {
				var all []string
				for _, c := range r.changes {
					all = append(all, changeText(c)+" ("+c.Tool+")")
				}
				sort.Strings(all)
				t.Errorf("compatible changes by rule (-want +got):\n%s\nall: %q", diff, all)
			}
		})
	}
}
