package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// heavyPackages are packages whose initialisation, or whose mere
// presence, costs every run of measure start-up time it does not use: a
// table printer building width tables at start, regular expressions
// (compiled at start by whoever links them, and the package's own
// Unicode tables), a tokenizer's vocabularies, a progress bar and colour
// libraries, a logger, an XML encoder's entity tables, the twin and the
// MCP SDK. None may come back into measure's import graph.
var heavyPackages = []string{
	"regexp",
	"encoding/xml",
	"database/sql",
	"log/slog",
	"text/template",
	"html/template",
	"github.com/olekukonko/tablewriter",
	"github.com/mattn/go-runewidth",
	"github.com/dlclark/regexp2/v2",
	"github.com/tiktoken-go/tokenizer",
	"github.com/schollz/progressbar/v3",
	"github.com/fatih/color",
	"github.com/modelcontextprotocol/go-sdk/mcp",
	"github.com/readmeter/readmeter/twin",
}

// goTool returns the go command, or skips the test without one.
func goTool(t *testing.T) string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command in PATH")
	}
	return goBin
}

// TestStartupImports: measure's import graph holds none of the heavy
// packages.
func TestStartupImports(t *testing.T) {
	out, err := exec.Command(goTool(t), "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := map[string]bool{}
	for _, p := range strings.Fields(string(out)) {
		deps[p] = true
	}
	if !deps["github.com/readmeter/readmeter/toollist"] {
		t.Fatalf("go list -deps . lists no toollist: %s", out)
	}
	for _, p := range heavyPackages {
		if deps[p] {
			t.Errorf("measure imports %s (go list -deps ./cmd/measure); keep it out of measure, or make what needs it lazy", p)
		}
	}
}

// initLine is one line of GODEBUG=inittrace=1.
var initLine = regexp.MustCompile(`^init (\S+) @\S+ ms, \S+ ms clock, (\d+) bytes, (\d+) allocs$`)

// TestStartupInit runs the built command, `measure --json CAPTURE` with
// GODEBUG=inittrace=1, and bounds what the initialisation of packages
// outside the standard library allocates: the measure of their work at
// start that does not depend on the machine's load, as the clock does.
// Before they were made lazy or dropped, tablewriter's width tables
// alone allocated 663 KB at start, the credential-name regular expression
// 38 KB, regexp2's tables 37 KB, the progress bar's 17 KB.
func TestStartupInit(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "measure")
	if out, err := exec.Command(goTool(t), "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "--json", "../../toollist/testdata/demo.json")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if out, err := cmd.Output(); err != nil {
		t.Fatalf("measure --json: %v\n%s%s", err, out, stderr.Bytes())
	}
	const perPackage, total = 8 << 10, 16 << 10
	sum, n := 0, 0
	sc := bufio.NewScanner(&stderr)
	for sc.Scan() {
		m := initLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		n++
		pkg := m[1]
		if first, _, _ := strings.Cut(pkg, "/"); !strings.Contains(first, ".") && pkg != "main" {
			continue // the standard library's
		}
		b, _ := strconv.Atoi(m[2])
		sum += b
		if b > perPackage {
			t.Errorf("%s allocates %d bytes at start (more than %d): make it lazy (sync.OnceValue) or keep it out of measure", pkg, b, perPackage)
		}
	}
	if n < 20 {
		t.Fatalf("only %d init lines in measure's stderr:\n%s", n, stderr.Bytes())
	}
	if sum > total {
		t.Errorf("the packages outside the standard library allocate %d bytes at start, more than %d", sum, total)
	}
}
