package toollist

import (
	"bytes"
	"encoding/base64"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/readmeter/readmeter/internal/nodeoracle"
	"github.com/readmeter/readmeter/jsonjs"
)

// nodeCorpus lists the captures checked against Node: this package's
// fixtures, the Node oracle's, and the jsonjs corpus (most of which are not
// tool lists: both sides must refuse those).
func nodeCorpus(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, pat := range []string{
		"testdata/*",
		"testdata/adversarial/*",
		"../internal/nodeoracle/testdata/*",
		"../jsonjs/testdata/corpus/*",
		"../captures/twin/*",
	} {
		m, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range m {
			if st, err := os.Stat(f); err == nil && st.Mode().IsRegular() {
				files = append(files, f)
			}
		}
	}
	if len(files) < 20 {
		t.Fatalf("only %d captures found for the Node comparison", len(files))
	}
	return files
}

// batchJS runs measure.js (its source at argv[2]) once per capture named
// after it, in one Node process, and writes for each a line: the exit code,
// then stdout and stderr in base64.
const batchJS = `
const vm = require('vm');
const fs = require('fs');
const src = fs.readFileSync(process.argv[1], 'utf8');
for (const path of process.argv.slice(2)) {
  let out = '', err = '';
  const proc = {
    argv: ['node', 'measure.js', path],
    stdout: { write: (s) => { out += s; } },
    stderr: { write: (s) => { err += s; } },
    exitCode: 0,
  };
  vm.runInNewContext(src, { require, Buffer, process: proc, console });
  console.log(proc.exitCode + ' ' + Buffer.from(out).toString('base64') + ' ' + Buffer.from(err).toString('base64'));
}
`

type nodeRun struct {
	code        int
	out, stderr []byte
}

// measureAllInNode runs Node's measure.js on every capture in one process.
func measureAllInNode(t *testing.T, paths []string) []nodeRun {
	t.Helper()
	node, err := nodeoracle.NodePath()
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(t.TempDir(), "measure.js")
	if err := os.WriteFile(src, []byte(nodeoracle.MeasureScript()), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, append([]string{"-e", batchJS, src}, paths...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v: %s", err, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != len(paths) {
		t.Fatalf("node answered %d captures of %d", len(lines), len(paths))
	}
	runs := make([]nodeRun, len(lines))
	for i, l := range lines {
		f := strings.Split(l, " ")
		if len(f) != 3 {
			t.Fatalf("node: bad line %q", l)
		}
		runs[i].code, _ = strconv.Atoi(f[0])
		runs[i].out, _ = base64.StdEncoding.DecodeString(f[1])
		runs[i].stderr, _ = base64.StdEncoding.DecodeString(f[2])
	}
	return runs
}

// TestFiguresAgainstNode runs Node's measure.js and Measure on the same
// files: both refuse the same files, and agree to the byte on every figure
// of the others.
func TestFiguresAgainstNode(t *testing.T) {
	paths := nodeCorpus(t)
	runs := measureAllInNode(t, paths)
	accepted := 0
	for _, r := range runs {
		if r.code == 0 {
			accepted++
		}
	}
	if accepted < 10 {
		t.Fatalf("Node accepts only %d of %d captures: the comparison proves little", accepted, len(paths))
	}
	for i, path := range paths {
		t.Run(strings.TrimPrefix(path, "../"), func(t *testing.T) {
			out, stderr, code := runs[i].out, string(runs[i].stderr), runs[i].code
			c, err := readCapture(path)
			var f *Figures
			if err == nil {
				f, err = measure(c, nil)
			}
			if code != 0 {
				var ie *Error
				if err == nil {
					t.Fatalf("Node refuses (%s); Measure accepts", strings.TrimSpace(stderr))
				}
				if !errors.As(err, &ie) {
					t.Fatalf("error is not *Error: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Node accepts; Measure refuses: %v", err)
			}
			want, perr := jsonjs.Parse(out)
			if perr != nil {
				t.Fatalf("Node's report: %v", perr)
			}
			got := jsonjs.ObjectValue(figuresMembers(f))
			for _, m := range want.Members() {
				g, ok := got.Get(m.Key)
				if !ok {
					t.Errorf("%s: missing", m.Key)
					continue
				}
				if gs, ws := jsonjs.Stringify(g), jsonjs.Stringify(m.Value); !bytes.Equal(gs, ws) {
					t.Errorf("%s:\n got %.400s\nwant %.400s", m.Key, gs, ws)
				}
			}
			if len(got.Members()) != len(want.Members()) {
				t.Errorf("members: got %d, Node writes %d", len(got.Members()), len(want.Members()))
			}
		})
	}
}
