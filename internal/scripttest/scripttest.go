// Package scripttest holds the testscript commands that the commands'
// golden tests share.
//
// testscript's exec tells only success from failure; exit codes are part of
// every command's interface, so the goldens check them with
//
//	exits N PROGRAM ARGS...
//
// which runs a program the test registered with testscript.Main, writes its
// output to the script's stdout and stderr for the usual checks, and fails
// unless it exited with N. The goldens of hostile input check that nothing
// a server sent reaches a terminal, a CI runner or a Markdown renderer raw
// with
//
//	noraw [-md] stdout|stderr|FILE...
package scripttest

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/readmeter/readmeter/internal/nodeoracle"
)

// Exits is the exits command: exits N PROGRAM ARGS...
func Exits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits N PROGRAM ARGS...")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits: %q is not an exit code", args[0])
	}
	stdout, stderr, got := Run(ts, args[1], nil, args[2:]...)
	ts.Stdout().Write(stdout)
	ts.Stderr().Write(stderr)
	if got != want {
		ts.Fatalf("%s exited %d, want %d", args[1], got, want)
	}
}

// scriptEnv are the variables a program reads from its environment that a
// script sets with env (and that are otherwise empty, whatever the test's
// own environment holds): a GitHub Actions job's.
var scriptEnv = []string{"GITHUB_ACTIONS", "GITHUB_STEP_SUMMARY", "GITHUB_WORKSPACE"}

// Run runs program (a command the test registered with testscript.Main,
// or any on PATH) in the script's current directory, with env added to the
// process's environment and the script's values of scriptEnv, and returns
// its output and exit code. It fails the script when the program cannot be
// run at all.
func Run(ts *testscript.TestScript, program string, env []string, args ...string) (stdout, stderr []byte, code int) {
	path, err := exec.LookPath(program)
	if err != nil {
		ts.Fatalf("%s: %v", program, err)
	}
	cmd := exec.Command(path, args...)
	cmd.Dir = ts.MkAbs(".")
	cmd.Env = append(os.Environ(), env...)
	for _, name := range scriptEnv {
		cmd.Env = append(cmd.Env, name+"="+ts.Getenv(name))
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		ts.Fatalf("%s: %v", program, err)
	}
	return out.Bytes(), errb.Bytes(), code
}

// Wellformed is the wellformed command: wellformed FILE... fails unless each file is well-formed XML (an SVG
// chart, a JUnit report) with one root element.
func Wellformed(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: wellformed FILE...")
	}
	for _, a := range args {
		f, err := os.Open(ts.MkAbs(a))
		ts.Check(err)
		d := xml.NewDecoder(f)
		roots := 0
		depth := 0
		for {
			tok, err := d.Token()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				f.Close()
				ts.Fatalf("%s: %v", a, err)
			}
			switch tok.(type) {
			case xml.StartElement:
				if depth == 0 {
					roots++
				}
				depth++
			case xml.EndElement:
				depth--
			}
		}
		f.Close()
		if roots != 1 {
			ts.Fatalf("%s: %d root elements, want 1", a, roots)
		}
	}
}

// Noraw is the noraw command: noraw [-md] stdout|stderr|FILE... fails when
// a text holds what a terminal or a log viewer would act on or hide
// (invalid UTF-8, a control character other than a line feed, a line or
// paragraph separator, an invisible format character other than the
// zero-width joiner and non-joiner, a noncharacter), what a GitHub Actions
// runner would read as a command ("##[" anywhere, a line that starts with
// "::" after spaces unless it is shaped as an annotation, "::error ...::",
// which the goldens compare line by line), or with
// -md what a Markdown renderer would read outside a code block (a "<", a
// table row whose cells a "|" split).
func Noraw(ts *testscript.TestScript, neg bool, args []string) {
	md := len(args) > 0 && args[0] == "-md"
	if md {
		args = args[1:]
	}
	if neg || len(args) == 0 {
		ts.Fatalf("usage: noraw [-md] stdout|stderr|FILE...")
	}
	for _, a := range args {
		if err := raw(ts.ReadFile(a), md); err != nil {
			ts.Fatalf("%s: %v", a, err)
		}
	}
}

var annotation = regexp.MustCompile(`^::(error|warning|notice)( [^:]*)?::`)

// raw returns what in text a reader would act on, or nil.
func raw(text string, md bool) error {
	if !utf8.ValidString(text) {
		return errors.New("invalid UTF-8")
	}
	for i, r := range text {
		switch {
		case r == '\n':
		case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f, r == 0x2028, r == 0x2029,
			unicode.Is(unicode.Cf, r) && r != 0x200c && r != 0x200d,
			r&0xfffe == 0xfffe, r >= 0xfdd0 && r <= 0xfdef:
			return fmt.Errorf("byte %d: %U raw", i, r)
		}
	}
	fence, cells := "", -1
	for n, line := range strings.Split(text, "\n") {
		if strings.Contains(line, "##[") {
			return fmt.Errorf("line %d: ##[ starts a workflow command: %s", n+1, line)
		}
		if strings.HasPrefix(strings.TrimLeftFunc(line, unicode.IsSpace), "::") && !annotation.MatchString(line) {
			return fmt.Errorf("line %d: starts a workflow command: %s", n+1, line)
		}
		if !md {
			continue
		}
		if t := strings.TrimLeft(line, " "); strings.HasPrefix(t, "```") {
			switch {
			case fence == "":
				fence = t[:len(t)-len(strings.TrimLeft(t, "`"))]
			case strings.TrimRight(t, " ") == fence:
				fence = ""
			}
			continue
		}
		if fence != "" {
			continue
		}
		if strings.Contains(line, "<") {
			return fmt.Errorf("line %d: < outside a code block: %s", n+1, line)
		}
		if !strings.HasPrefix(line, "|") {
			cells = -1
			continue
		}
		c := strings.Count(line, "|") - strings.Count(line, `\|`)
		if cells >= 0 && c != cells {
			return fmt.Errorf("line %d: %d cell bars, the row above %d: %s", n+1, c, cells, line)
		}
		cells = c
	}
	return nil
}

// TSValid is the tsvalid command: tsvalid FILE... fails unless the
// TypeScript compiler's parser (the typescript package pinned in
// testdata/npm) reads each file without a syntax error. With !, it fails
// unless some file has one.
func TSValid(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) == 0 {
		ts.Fatalf("usage: tsvalid FILE...")
	}
	var files []nodeoracle.TSFile
	for _, a := range args {
		files = append(files, nodeoracle.TSFile{Name: a, Text: ts.ReadFile(a)})
	}
	res, err := nodeoracle.ParseTSFiles(files...)
	if err != nil {
		ts.Fatalf("tsvalid: %v", err)
	}
	bad := false
	for i, r := range res {
		for _, d := range r.Diagnostics {
			bad = true
			ts.Logf("%s:%d: %s", args[i], d.Line, d.Message)
		}
	}
	if bad != neg {
		ts.Fatalf("tsvalid: syntax errors: %v, want %v", bad, neg)
	}
}

// LineEnds is the lineends command: lineends crlf|cr FILE... rewrites each
// file's LF line ends as CRLF or as a lone CR (a txtar archive holds LF).
func LineEnds(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 || args[0] != "crlf" && args[0] != "cr" {
		ts.Fatalf("usage: lineends crlf|cr FILE...")
	}
	end := map[string]string{"crlf": "\r\n", "cr": "\r"}[args[0]]
	for _, a := range args[1:] {
		data := strings.ReplaceAll(ts.ReadFile(a), "\n", end)
		if err := os.WriteFile(ts.MkAbs(a), []byte(data), 0o666); err != nil {
			ts.Fatalf("lineends: %v", err)
		}
	}
}
