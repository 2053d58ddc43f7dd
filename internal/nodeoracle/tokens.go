package nodeoracle

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// NPMModules returns the node_modules folder where `make npm-deps`
// installs the pinned npm packages the tests use (testdata/npm at the
// module's root), failing the test when js-tiktoken or typescript is not
// installed there.
func NPMModules(t testing.TB) string {
	t.Helper()
	mods, err := npmModules()
	if err != nil {
		t.Fatal(err)
	}
	return mods
}

func npmModules() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", errors.New("nodeoracle: no go.mod above the test's directory")
		}
		dir = up
	}
	mods := filepath.Join(dir, "testdata", "npm", "node_modules")
	for _, pkg := range []string{"js-tiktoken", "typescript"} {
		if _, err := os.Stat(filepath.Join(mods, pkg, "package.json")); err != nil {
			return "", fmt.Errorf("nodeoracle: %s is not installed in %s (run make npm-deps): %v", pkg, mods, err)
		}
	}
	return mods, nil
}

// MeasureTokenizers runs measure.js --tokenizers=NAMES on the captures in
// one Node process and returns its output: one report (several: an array)
// whose figures carry "tokenizers" at the top and in each tool, counted by
// js-tiktoken. It fails the test when Node refuses a capture.
func MeasureTokenizers(t testing.TB, names []string, captures ...string) []byte {
	t.Helper()
	node, err := NodePath()
	if err != nil {
		t.Fatal(err)
	}
	args := append([]string{"-", "--tokenizers=" + strings.Join(names, ",")}, captures...)
	cmd := exec.Command(node, args...)
	cmd.Env = append(os.Environ(), "READMETER_NPM_MODULES="+NPMModules(t))
	cmd.Stdin = strings.NewReader(measureJS)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("nodeoracle: measure.js --tokenizers: %v: %s", err, strings.TrimSpace(errb.String()))
	}
	return out.Bytes()
}

// countJS reads a JSON array of strings on stdin and prints, for the
// tokenizer named in argv, the array of their token counts.
const countJS = `
const paths = [process.env.READMETER_NPM_MODULES];
const lite = require(require.resolve('js-tiktoken/lite', { paths }));
const enc = new lite.Tiktoken(require(require.resolve('js-tiktoken/ranks/' + process.argv[1] + '_base', { paths })));
let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => { input += d; });
process.stdin.on('end', () => {
  const texts = JSON.parse(input);
  process.stdout.write(JSON.stringify(texts.map((s) => enc.encode(s, [], []).length)));
});
`

// CountTokens returns js-tiktoken's count of each text with the tokenizer
// named (o200k, cl100k), special tokens' spellings counted as text. The
// texts go to Node as JSON, so each must be valid UTF-8.
func CountTokens(t testing.TB, name string, texts []string) []int {
	t.Helper()
	node, err := NodePath()
	if err != nil {
		t.Fatal(err)
	}
	in, err := json.Marshal(texts)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, "-e", countJS, name)
	cmd.Env = append(os.Environ(), "READMETER_NPM_MODULES="+NPMModules(t))
	cmd.Stdin = bytes.NewReader(in)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("nodeoracle: counting tokens: %v: %s", err, strings.TrimSpace(errb.String()))
	}
	var counts []int
	if err := json.Unmarshal(out.Bytes(), &counts); err != nil || len(counts) != len(texts) {
		t.Fatalf("nodeoracle: counting tokens: %d counts for %d texts (%v)", len(counts), len(texts), err)
	}
	return counts
}
