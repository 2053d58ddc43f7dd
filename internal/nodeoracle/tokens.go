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
	var counts []int
	runOnTexts(t, countJS, name, "counting tokens", texts, &counts)
	if len(counts) != len(texts) {
		t.Fatalf("nodeoracle: counting tokens: %d counts for %d texts", len(counts), len(texts))
	}
	return counts
}

// runOnTexts runs script with Node, its argument arg and texts as a JSON
// array on stdin, and decodes what it prints into out; what names the
// step in a failure.
func runOnTexts(t testing.TB, script, arg, what string, texts []string, out any) {
	t.Helper()
	node, err := NodePath()
	if err != nil {
		t.Fatal(err)
	}
	in, err := json.Marshal(texts)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, "-e", script, arg)
	cmd.Env = append(os.Environ(), "READMETER_NPM_MODULES="+NPMModules(t))
	cmd.Stdin = bytes.NewReader(in)
	var stdout, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("nodeoracle: %s: %v: %s", what, err, strings.TrimSpace(errb.String()))
	}
	if err := json.Unmarshal(stdout.Bytes(), out); err != nil {
		t.Fatalf("nodeoracle: %s: %v", what, err)
	}
}

// splitJS reads a JSON array of strings on stdin and prints, for the
// tokenizer named in argv, the pieces its pattern splits each into, as
// js-tiktoken runs it (new RegExp(pat_str, "ug")).
const splitJS = `
const paths = [process.env.READMETER_NPM_MODULES];
const ranks = require(require.resolve('js-tiktoken/ranks/' + process.argv[1] + '_base', { paths }));
const re = new RegExp(ranks.pat_str, 'ug');
let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => { input += d; });
process.stdin.on('end', () => {
  const texts = JSON.parse(input);
  process.stdout.write(JSON.stringify(texts.map((s) => s.match(re) ?? [])));
});
`

// SplitTokens returns the pieces js-tiktoken's split pattern of the
// tokenizer named (o200k, cl100k) cuts each text into, the first step of
// counting its tokens. The texts go to Node as JSON, so each must be
// valid UTF-8.
func SplitTokens(t testing.TB, name string, texts []string) [][]string {
	t.Helper()
	var pieces [][]string
	runOnTexts(t, splitJS, name, "splitting", texts, &pieces)
	if len(pieces) != len(texts) {
		t.Fatalf("nodeoracle: splitting: %d lists of pieces for %d texts", len(pieces), len(texts))
	}
	return pieces
}

// classesJS prints, for every code point from U+0000 to U+10FFFF, one
// byte whose bit k tells whether the k-th regular expression of the JSON
// array in argv (each a character class, run with the u flag) matches it.
const classesJS = `
const res = JSON.parse(process.argv[1]).map((c) => new RegExp('^' + c + '$', 'u'));
const out = Buffer.alloc(0x110000);
for (let cp = 0; cp < 0x110000; cp++) {
  const s = String.fromCodePoint(cp);
  let b = 0;
  for (let k = 0; k < res.length; k++) if (res[k].test(s)) b |= 1 << k;
  out[cp] = b;
}
process.stdout.write(out);
`

// CharClasses returns, for every code point from U+0000 to U+10FFFF, a
// byte whose bit k tells whether Node's regular expression classes[k] (a
// character class such as `\p{L}` or `\s`, run with the u flag, as
// js-tiktoken runs its patterns) matches it. At most eight classes.
func CharClasses(t testing.TB, classes []string) []byte {
	t.Helper()
	if len(classes) > 8 {
		t.Fatalf("nodeoracle: %d classes, at most 8", len(classes))
	}
	node, err := NodePath()
	if err != nil {
		t.Fatal(err)
	}
	arg, err := json.Marshal(classes)
	if err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	cmd := exec.Command(node, "-e", classesJS, string(arg))
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("nodeoracle: classes: %v: %s", err, strings.TrimSpace(errb.String()))
	}
	if out.Len() != 0x110000 {
		t.Fatalf("nodeoracle: classes: %d bytes, want one a code point", out.Len())
	}
	return out.Bytes()
}

// UnicodeVersion returns the version of Unicode of Node's regular
// expressions (process.versions.unicode).
func UnicodeVersion(t testing.TB) string {
	t.Helper()
	node, err := NodePath()
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(node, "-p", "process.versions.unicode").Output()
	if err != nil {
		t.Fatalf("nodeoracle: %v", err)
	}
	return strings.TrimSpace(string(out))
}
