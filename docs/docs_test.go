// Package docs_test runs the documentation as a user would: every command
// block of README.md and docs/*.md, against the three commands built once
// from this checkout, each checked for its exit code and the output lines
// the block shows.
//
// The rules a block follows (docs/README of the suite, in short):
//
//   - A fenced block tagged sh holds commands, one a line (a line ending
//     in \ goes on); each must exit 0, or the code its comment starts
//     with: `measure --budgets b.json tools.json   # exits 1: over budget`.
//   - A block tagged console holds `$ COMMAND` lines, each followed by
//     lines of its output: every such line must appear in what the command
//     printed (stdout and stderr together), in that order; `...` in a line
//     stands for any text, and a line that is only `...` for any lines.
//   - An HTML comment right above a block can say `<!-- doctest: not run:
//     WHY -->` (shown, not run: WHY says what it needs), or give hidden
//     set-up: `<!-- doctest: setup: COMMAND -->` runs COMMAND first, and
//     `<!-- doctest: twin: URL -->` starts the embedded twin and puts its
//     address where the block says URL. Several go in one comment, one a
//     line.
//   - Every other block has a language that is not a command's (yaml,
//     json, text, ts, go); a block without a language, or a text block
//     that starts with one of the toolkit's commands, fails the suite: a
//     new command in the docs cannot go untested.
//
// The blocks of one document run in order in one copy of the checkout, so
// a block can use what an earlier one wrote. PATH starts with the built
// commands; HOME is an empty directory.
package docs_test

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

var bin string // the directory of the built commands

var root = func() string { r, _ := filepath.Abs(".."); return r }()

var keepWork = flag.Bool("keep", false, "keep each document's working copy (its path is logged)")

func TestMain(m *testing.M) {
	flag.Parse()
	dir, err := os.MkdirTemp("", "readmeter-docs-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	bin = filepath.Join(dir, "bin")
	// -buildvcs=auto: the commands carry the checkout's revision when
	// there is one, whatever GOFLAGS says, as a user's build does.
	cmd := exec.Command("go", "build", "-buildvcs=auto", "-o", bin+string(filepath.Separator), "./cmd/...")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "go build ./cmd/...: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(2)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// docs are the documents whose blocks run.
func docs(t *testing.T) []string {
	t.Helper()
	found, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{filepath.Join(root, "README.md")}, found...)
}

// block is one fenced block of a document.
type block struct {
	doc   string   // the document's path from the root
	line  int      // the line of its opening fence
	lang  string   // sh, console, yaml, ...
	lines []string // its lines, the fence's indent removed
	// from the doctest comment above it
	notRun string
	skip   map[string]string // a command prefix: why the commands it starts are not run
	setup  []string
	twin   []string // URLs the twin's address stands for
}

func (b *block) where() string { return fmt.Sprintf("%s:%d", b.doc, b.line) }

var fence = regexp.MustCompile("^(\\s*)```(\\S*)\\s*$")

// parseBlocks reads the fenced blocks of the document at path.
func parseBlocks(t *testing.T, path string) []*block {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rel, _ := filepath.Rel(root, path)
	lines := strings.Split(string(data), "\n")
	var out []*block
	for i := 0; i < len(lines); i++ {
		m := fence.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		b := &block{doc: rel, line: i + 1, lang: m[2]}
		indent := m[1]
		j := i + 1
		for ; j < len(lines) && strings.TrimSpace(lines[j]) != "```"; j++ {
			b.lines = append(b.lines, strings.TrimPrefix(lines[j], indent))
		}
		if j == len(lines) {
			t.Fatalf("%s: the block is not closed", b.where())
		}
		if err := b.directives(lines[:i]); err != nil {
			t.Errorf("%s: %v", b.where(), err)
		}
		out = append(out, b)
		i = j
	}
	return out
}

// directives reads the doctest comment that ends right above the block
// (above holds the document's lines before the fence).
func (b *block) directives(above []string) error {
	k := len(above) - 1
	if k < 0 || !strings.HasSuffix(strings.TrimSpace(above[k]), "-->") {
		return nil
	}
	var text []string
	for ; k >= 0; k-- {
		text = append([]string{strings.TrimSpace(above[k])}, text...)
		if strings.HasPrefix(strings.TrimSpace(above[k]), "<!--") {
			break
		}
	}
	body := strings.Join(text, "\n")
	body = strings.TrimSuffix(strings.TrimPrefix(body, "<!--"), "-->")
	body, ok := strings.CutPrefix(strings.TrimSpace(body), "doctest:")
	if !ok {
		return nil
	}
	for _, l := range strings.Split(body, "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		key, val, _ := strings.Cut(l, ":")
		val = strings.TrimSpace(val)
		switch strings.TrimSpace(key) {
		case "not run":
			if val == "" {
				return fmt.Errorf("doctest: not run: say why (what the block needs that the suite has not)")
			}
			b.notRun = val
		case "skip":
			prefix, why, ok := strings.Cut(val, ": ")
			if !ok || strings.TrimSpace(why) == "" {
				return fmt.Errorf("doctest: skip: want skip: COMMAND: why it is not run")
			}
			if b.skip == nil {
				b.skip = map[string]string{}
			}
			b.skip[prefix] = why
		case "setup":
			b.setup = append(b.setup, val)
		case "twin":
			b.twin = append(b.twin, val)
		default:
			return fmt.Errorf("doctest: %q: want not run, skip, setup or twin", l)
		}
	}
	return nil
}

// command is one command of a block: its text, the exit code it must end
// with, and (in a console block) the lines its output must show.
type command struct {
	line int
	text string
	exit int
	want []string
}

var exitsComment = regexp.MustCompile(`^#\s*exits (\d+)\b`)

// commands splits the block into its commands.
func (b *block) commands() ([]*command, error) {
	var out []*command
	var cur *command
	cont := false
	for i, l := range b.lines {
		n := b.line + 1 + i
		switch {
		case cont:
			cur.text += "\n" + l
		case b.lang == "console" && strings.HasPrefix(l, "$ "):
			cur = &command{line: n, text: strings.TrimPrefix(l, "$ ")}
			out = append(out, cur)
		case b.lang == "console":
			if cur == nil {
				if strings.TrimSpace(l) == "" {
					continue
				}
				return nil, fmt.Errorf("%s:%d: output before any $ command", b.doc, n)
			}
			if strings.TrimSpace(l) != "" {
				cur.want = append(cur.want, strings.TrimRight(l, " "))
			}
			continue
		default: // sh
			t := strings.TrimSpace(l)
			if t == "" || strings.HasPrefix(t, "#") {
				continue
			}
			cur = &command{line: n, text: l}
			out = append(out, cur)
		}
		cont = strings.HasSuffix(strings.TrimRight(l, " "), "\\")
	}
	for _, c := range out {
		code, comment := splitComment(c.text)
		c.text = code
		if m := exitsComment.FindStringSubmatch(comment); m != nil {
			c.exit, _ = strconv.Atoi(m[1])
		}
	}
	return out, nil
}

// splitComment splits a shell command from its trailing # comment (a #
// after white space, outside quotes).
func splitComment(s string) (code, comment string) {
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else if c == '\\' && quote == '"' {
				i++
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '\\':
			i++
		case c == '#' && (i == 0 || s[i-1] == ' ' || s[i-1] == '\t'):
			return strings.TrimRight(s[:i], " \t"), s[i:]
		}
	}
	return s, ""
}

// commandWords are the first words of a line that make a block a command
// block.
var commandWords = []string{"measure", "walks", "twin", "go", "make", "npm", "npx", "bash"}

// TestEveryBlockIsRunOrSaysWhy fails on a block without a language, and
// on a text block that holds one of the commands: every command in the
// docs is in a sh or console block, run or marked not run with a reason.
func TestEveryBlockIsRunOrSaysWhy(t *testing.T) {
	for _, doc := range docs(t) {
		for _, b := range parseBlocks(t, doc) {
			switch b.lang {
			case "":
				t.Errorf("%s: a block without a language: tag it sh or console to run it, or text, yaml, json... for what is not a command", b.where())
			case "sh", "console":
			default:
				for i, l := range b.lines {
					first, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimSpace(l), "$ "), " ")
					synopsis := strings.Contains(l, "[--") || strings.Contains(l, "...|") || strings.Contains(l, "...]") || strings.HasSuffix(l, "FILE...")
					if slices.Contains(commandWords, first) && b.lang != "yaml" && !synopsis {
						t.Errorf("%s:%d: %q in a %s block: a command goes in a sh or console block", b.doc, b.line+1+i, first, b.lang)
					}
				}
			}
		}
	}
}

// TestDocs runs every document's command blocks.
func TestDocs(t *testing.T) {
	if testing.Short() {
		t.Skip("the docs suite builds and runs the commands")
	}
	for _, doc := range docs(t) {
		rel, _ := filepath.Rel(root, doc)
		t.Run(strings.ReplaceAll(rel, "/", "_"), func(t *testing.T) {
			blocks := parseBlocks(t, doc)
			run := 0
			for _, b := range blocks {
				if (b.lang == "sh" || b.lang == "console") && b.notRun == "" {
					run++
				}
			}
			if run == 0 {
				t.Skip("no block to run")
			}
			work := workCopy(t)
			for _, b := range blocks {
				if b.lang != "sh" && b.lang != "console" || b.notRun != "" {
					continue
				}
				runBlock(t, work, b)
			}
		})
	}
}

// workCopy copies the checkout's files (git's tracked and untracked ones,
// not the ignored) into a new directory, with the npm servers linked in.
func workCopy(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if *keepWork {
		d, err := os.MkdirTemp("", "readmeter-doc-work-")
		if err != nil {
			t.Fatal(err)
		}
		dir = d
		t.Logf("working copy: %s", dir)
	}
	cmd := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	for _, f := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		src := filepath.Join(root, f)
		st, err := os.Lstat(src)
		if err != nil || !st.Mode().IsRegular() {
			continue // deleted in the work tree, or not a file
		}
		dst := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(dst), 0o777); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, data, st.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
	nm := filepath.Join(root, "testdata", "npm", "node_modules")
	if _, err := os.Stat(nm); err == nil {
		os.Symlink(nm, filepath.Join(dir, "testdata", "npm", "node_modules"))
	}
	// A git repository, so that walks history and the like have one.
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=docs", "-c", "user.email=docs@example.org", "commit", "-q", "-m", "docs suite"}} {
		g := exec.Command("git", args...)
		g.Dir = dir
		if out, err := g.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}

// env is the environment the blocks run in.
func env(t *testing.T, work string) []string {
	home := filepath.Join(work, ".home")
	os.MkdirAll(home, 0o777)
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "PATH", "HOME", "GITHUB_ACTIONS", "GITHUB_STEP_SUMMARY", "GOFLAGS", "GOBIN", "GOPATH", "GIT_DIR", "GIT_WORK_TREE":
			continue
		}
		out = append(out, kv)
	}
	npmBin := filepath.Join(root, "testdata", "npm", "node_modules", ".bin")
	// The go command keeps its caches (a go install in a block builds from
	// them) and installs into the working copy.
	for _, k := range []string{"GOMODCACHE", "GOCACHE"} {
		if v, err := exec.Command("go", "env", k).Output(); err == nil {
			out = append(out, k+"="+strings.TrimSpace(string(v)))
		}
	}
	return append(out, "PATH="+bin+string(os.PathListSeparator)+npmBin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"HOME="+home, "GOBIN="+filepath.Join(work, ".gobin"), "GOFLAGS=-buildvcs=auto",
		"GIT_AUTHOR_NAME=docs", "GIT_AUTHOR_EMAIL=docs@example.org", "GIT_COMMITTER_NAME=docs", "GIT_COMMITTER_EMAIL=docs@example.org")
}

// runBlock runs the block's set-up, then each of its commands in turn.
func runBlock(t *testing.T, work string, b *block) {
	t.Helper()
	cmds, err := b.commands()
	if err != nil {
		t.Error(err)
		return
	}
	e := env(t, work)
	var twinURL string
	if len(b.twin) > 0 {
		var stop func()
		twinURL, stop = startTwin(t, work, e)
		defer stop()
	}
	for _, s := range b.setup {
		if out, code := sh(work, e, s, 2*time.Minute); code != 0 {
			t.Errorf("%s: set-up %q exited %d:\n%s", b.where(), s, code, out)
			return
		}
	}
	for _, c := range cmds {
		if b.skipped(c.text) {
			continue
		}
		text := c.text
		for _, u := range b.twin {
			text = strings.ReplaceAll(text, u, twinURL)
		}
		out, code := sh(work, e, text, 5*time.Minute)
		t.Logf("%s:%d: exit %d: %s", b.doc, c.line, code, c.text)
		if code != c.exit {
			t.Errorf("%s:%d: %s\nexited %d, want %d; it printed:\n%s", b.doc, c.line, c.text, code, c.exit, clip(out))
			continue
		}
		if err := showsLines(out, c.want); err != nil {
			t.Errorf("%s:%d: %s\n%v; it printed:\n%s", b.doc, c.line, c.text, err, clip(out))
		}
	}
}

// skipped reports whether a skip directive of the block names the command.
func (b *block) skipped(text string) bool {
	for prefix := range b.skip {
		if strings.HasPrefix(text, prefix) {
			return true
		}
	}
	return false
}

// sh runs text with bash in dir and returns what it printed (stdout and
// stderr together) and its exit code.
func sh(dir string, env []string, text string, limit time.Duration) (string, int) {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", text)
	cmd.Dir = dir
	cmd.Env = env
	cmd.WaitDelay = 5 * time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ctx.Err() != nil {
		return out.String() + fmt.Sprintf("\n(stopped after %v)", limit), -1
	}
	if ee, ok := err.(*exec.ExitError); ok {
		return out.String(), ee.ExitCode()
	}
	if err != nil {
		return out.String() + err.Error(), -1
	}
	return out.String(), 0
}

// startTwin starts the built twin on a free loopback port and returns its
// base URL.
func startTwin(t *testing.T, work string, env []string) (string, func()) {
	t.Helper()
	cmd := exec.Command(filepath.Join(bin, "twin"), "--addr", "127.0.0.1:0")
	cmd.Dir = work
	cmd.Env = env
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("twin printed no address: %v", err)
	}
	return strings.TrimSpace(line), func() {
		cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	}
}

// showsLines reports whether out holds the wanted lines in order; "..." in
// a line matches any text, and a line that is only "..." any lines.
func showsLines(out string, want []string) error {
	got := strings.Split(strings.TrimRight(out, "\n"), "\n")
	i := 0
	for _, w := range want {
		if strings.TrimSpace(w) == "..." {
			continue
		}
		re := lineRegexp(w)
		for i < len(got) && !re.MatchString(strings.TrimRight(got[i], " ")) {
			i++
		}
		if i == len(got) {
			return fmt.Errorf("no line (in order) shows %q", w)
		}
		i++
	}
	return nil
}

func lineRegexp(w string) *regexp.Regexp {
	parts := strings.Split(w, "...")
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	return regexp.MustCompile("^" + strings.Join(parts, ".*") + "$")
}

func clip(s string) string {
	if len(s) > 4000 {
		return s[:2000] + "\n...\n" + s[len(s)-2000:]
	}
	return s
}

// TestVersion runs --version of each built command: the module version
// and the checkout's revision, exit 0.
func TestVersion(t *testing.T) {
	rev := "unknown-revision"
	if out, err := exec.Command("git", "-C", root, "rev-parse", "HEAD").Output(); err == nil {
		rev = strings.TrimSpace(string(out))[:12]
	}
	for _, name := range []string{"measure", "walks", "twin"} {
		out, err := exec.Command(filepath.Join(bin, name), "--version").CombinedOutput()
		if err != nil {
			t.Errorf("%s --version: %v\n%s", name, err, out)
			continue
		}
		// Built in a checkout, the module version is the commit's
		// pseudo-version (v0.0.0-TIME-REV, +dirty with changes) or, by an
		// older go command, (devel) and the revision.
		re := regexp.MustCompile(`^` + name + ` (v\S+-` + rev + `(\+dirty)?|\(devel\) ` + rev + `( \S+Z)?( dirty)?) \(go\S+ ` + runtime.GOOS + `/` + runtime.GOARCH + `\)\n$`)
		if !re.Match(out) {
			t.Errorf("%s --version printed %q, want the module version and revision %s", name, out, rev)
		}
	}
}

// helps are the commands and subcommands whose --help the suite reads.
var helps = [][]string{
	{"measure"}, {"measure", "diff"}, {"measure", "capture"}, {"measure", "config"}, {"measure", "snap"},
	{"walks"}, {"walks", "run"}, {"walks", "merge"}, {"walks", "history"}, {"walks", "check"}, {"walks", "budgets", "render"},
	{"twin"},
}

var flagName = regexp.MustCompile(`(?m)^\s+(?:-(\w), )?--([a-z][a-z0-9-]*)`)

// TestEveryFlagIsShown holds every flag of every command's --help to at
// least one use in a doc example or a golden script's commands.
func TestEveryFlagIsShown(t *testing.T) {
	used := usedText(t)
	for _, h := range helps {
		args := append(h[1:], "--help")
		out, err := exec.Command(filepath.Join(bin, h[0]), args...).Output()
		if err != nil {
			t.Errorf("%s --help: %v", strings.Join(h, " "), err)
			continue
		}
		_, flags, _ := strings.Cut(string(out), "\nFlags:\n")
		flags, _, _ = strings.Cut(flags, "\nExit codes:\n")
		for _, m := range flagName.FindAllStringSubmatch(flags, -1) {
			short, name := m[1], m[2]
			if name == "help" || name == "version" && h[0] != "twin" && len(h) > 1 {
				continue
			}
			use := `--` + regexp.QuoteMeta(name)
			if short != "" {
				use = `(` + use + `|-` + short + `)`
			}
			if !regexp.MustCompile(`(^|[\s"'\[])` + use + `\b`).MatchString(used[h[0]]) {
				t.Errorf("%s --%s: no doc example or golden script uses it", strings.Join(h, " "), name)
			}
		}
	}
}

// usedText gathers, per command, the command lines of the docs' blocks
// and of the golden scripts (their commands, not their files): a line
// goes to the command it runs, and a line after one ending in \ goes
// with it.
func usedText(t *testing.T) map[string]string {
	t.Helper()
	used := map[string]*strings.Builder{"measure": {}, "walks": {}, "twin": {}}
	add := func(text string) {
		cur := ""
		for _, l := range strings.Split(text, "\n") {
			if name := runs(l); name != "" {
				cur = name
			}
			if cur != "" {
				used[cur].WriteString(l + "\n")
			}
			if !strings.HasSuffix(strings.TrimRight(l, " "), "\\") {
				cur = ""
			}
		}
	}
	for _, doc := range docs(t) {
		for _, b := range parseBlocks(t, doc) {
			add(strings.Join(b.lines, "\n"))
		}
	}
	filepath.WalkDir(filepath.Join(root, "cmd"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".txtar") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		script, _, _ := strings.Cut(string(data), "\n-- ")
		add(script)
		return nil
	})
	out := map[string]string{}
	for k, b := range used {
		out[k] = b.String()
	}
	return out
}

// runs returns the toolkit command a line of a doc block or a golden
// script runs ("measure", "walks", "twin"), or "".
func runs(line string) string {
	f := strings.Fields(line)
	for len(f) > 0 {
		switch {
		case f[0] == "$" || f[0] == "!" || f[0] == "exec" || f[0] == "-":
			f = f[1:]
		case f[0] == "exits" && len(f) > 1:
			f = f[2:]
		case f[0] == "args:" || f[0] == "measure-program":
			if f[0] == "args:" {
				return "walks" // the action's args are walks'
			}
			return "measure"
		default:
			name := filepath.Base(f[0])
			switch name {
			case "measure", "walks", "twin":
				return name
			}
			return ""
		}
	}
	return ""
}

// TestSpecsRunsGiveBudgets fails on a walks run of the repo's specs that
// gives no --budgets, in a block run or not: the survey walk reads
// {{budget.SURVEY_BUDGET.spaces}} from the budget file, so such a run
// exits 2 before a walk starts, and a reader copying it is stuck.
func TestSpecsRunsGiveBudgets(t *testing.T) {
	for _, doc := range docs(t) {
		for _, b := range parseBlocks(t, doc) {
			if b.lang != "sh" && b.lang != "console" {
				continue
			}
			cmds, err := b.commands()
			if err != nil {
				t.Fatalf("%s: %v", b.where(), err)
			}
			for _, c := range cmds {
				words := strings.Fields(strings.ReplaceAll(c.text, "\\\n", " "))
				if len(words) < 3 || words[0] != "walks" || words[1] != "run" {
					continue
				}
				specs := slices.ContainsFunc(words[2:], func(w string) bool {
					w = strings.Trim(w, `"'`)
					return w == "specs" || w == "specs/" || strings.HasSuffix(w, "/specs") || strings.Contains(w, "specs/schellingaf")
				})
				if specs && !slices.Contains(words, "--budgets") && !slices.ContainsFunc(words, func(w string) bool { return strings.HasPrefix(w, "--budgets=") }) {
					t.Errorf("%s:%d: %q gives no --budgets: the survey walk reads SURVEY_BUDGET.spaces from the budget file, and the run exits 2 without one", b.doc, c.line, c.text)
				}
			}
		}
	}
}
