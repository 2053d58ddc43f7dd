package main

import (
	"bufio"
	"bytes"
	"debug/elf"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// This file runs the repository's action.yml as GitHub's runner runs a
// composite action: each run step's expressions filled in from the
// inputs, the github context and earlier steps' outputs, its script run by
// bash --noprofile --norc -eo pipefail in the work space, with the job's
// files (GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_PATH) fresh for each
// step and read back after it. A uses step (actions/setup-go) is not run:
// Go is on the machine. The pull-request comment goes through a stand-in
// for the GitHub CLI (fakeGH), which keeps the pull request's comments in
// a file: GitHub's API is not here to talk to.

type actionFile struct {
	Inputs  map[string]struct{ Default string } `yaml:"inputs"`
	Outputs map[string]struct{ Value string }   `yaml:"outputs"`
	Runs    struct {
		Using string       `yaml:"using"`
		Steps []actionStep `yaml:"steps"`
	} `yaml:"runs"`
}

type actionStep struct {
	Name  string            `yaml:"name"`
	ID    string            `yaml:"id"`
	If    string            `yaml:"if"`
	Uses  string            `yaml:"uses"`
	With  map[string]string `yaml:"with"`
	Shell string            `yaml:"shell"`
	Env   map[string]string `yaml:"env"`
	Run   string            `yaml:"run"`
}

// actionRun is one run of the action in a job.
type actionRun struct {
	exitCode int               // the action's: 0, or the failing step's
	failed   string            // the step that failed
	outputs  map[string]string // the action's outputs
	stdout   string            // every step's output, as the log shows it
	summary  string            // the job's step summary
}

// runAction runs action.yml with the inputs given, in workspace, as a
// pull_request job of pull request 7 in readmeter/demo.
func runAction(t *testing.T, workspace, temp string, inputs map[string]string, env []string) actionRun {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(root, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var a actionFile
	if err := yaml.Unmarshal(data, &a); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	if a.Runs.Using != "composite" {
		t.Fatalf("action.yml: runs.using %q, want composite", a.Runs.Using)
	}
	ctx := map[string]string{
		"github.action_path":               root,
		"github.action_ref":                "v1",
		"github.token":                     "token-of-the-job",
		"github.repository":                "readmeter/demo",
		"github.event_name":                "pull_request",
		"github.event.pull_request.number": "7",
		"github.server_url":                "https://github.example",
		"github.run_id":                    "42",
		"runner.temp":                      temp,
	}
	for name, in := range a.Inputs {
		v, ok := inputs[name]
		if !ok {
			v = expand(t, in.Default, ctx)
		}
		ctx["inputs."+name] = v
	}
	for name := range inputs {
		if _, ok := a.Inputs[name]; !ok {
			t.Fatalf("action.yml has no input %q", name)
		}
	}
	var run actionRun
	var extraPath []string
	var summary, log strings.Builder
	for i, st := range a.Runs.Steps {
		if st.Uses != "" {
			if !regexp.MustCompile(`^[\w-]+/[\w-]+@v\d+$`).MatchString(st.Uses) {
				t.Errorf("step %q: uses %q: pin a major version (owner/repo@vN)", st.Name, st.Uses)
			}
			continue // Go is on the machine
		}
		if st.If != "" && !truthy(eval(t, strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(st.If), "${{"), "}}"), ctx)) {
			continue
		}
		if st.Shell != "bash" {
			t.Fatalf("step %q: shell %q: the action's steps run in bash", st.Name, st.Shell)
		}
		id := st.ID
		if id == "" {
			id = "__step" + strconv.Itoa(i)
		}
		dir := filepath.Join(temp, "_runner_file_commands", id)
		if err := os.MkdirAll(dir, 0o777); err != nil {
			t.Fatal(err)
		}
		files := map[string]string{}
		for _, f := range []string{"GITHUB_OUTPUT", "GITHUB_STEP_SUMMARY", "GITHUB_PATH", "GITHUB_ENV"} {
			files[f] = filepath.Join(dir, f)
			if err := os.WriteFile(files[f], nil, 0o666); err != nil {
				t.Fatal(err)
			}
		}
		script := filepath.Join(dir, "script.sh")
		if err := os.WriteFile(script, []byte(st.Run), 0o666); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", script)
		cmd.Dir = workspace
		cmd.Env = jobEnv(append(extraPath, os.Getenv("PATH")), env)
		cmd.Env = append(cmd.Env,
			"GITHUB_ACTIONS=true", "CI=true",
			"GITHUB_WORKSPACE="+workspace, "RUNNER_TEMP="+temp,
			"GITHUB_ACTION_PATH="+root, "GITHUB_ACTION="+id,
			"GITHUB_REPOSITORY=readmeter/demo", "GITHUB_EVENT_NAME=pull_request")
		for f, p := range files {
			cmd.Env = append(cmd.Env, f+"="+p)
		}
		for k, v := range st.Env {
			cmd.Env = append(cmd.Env, k+"="+expand(t, v, ctx))
		}
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		fmt.Fprintf(&log, "##[group]%s\n%s##[endgroup]\n", st.Name, out.String())
		outs, err2 := readOutputs(files["GITHUB_OUTPUT"])
		if err2 != nil {
			t.Fatalf("step %q: GITHUB_OUTPUT: %v", st.Name, err2)
		}
		for k, v := range outs {
			ctx["steps."+id+".outputs."+k] = v
		}
		if p, _ := os.ReadFile(files["GITHUB_PATH"]); len(p) > 0 {
			for _, l := range strings.Split(strings.TrimSpace(string(p)), "\n") {
				extraPath = append([]string{l}, extraPath...)
			}
		}
		s, _ := os.ReadFile(files["GITHUB_STEP_SUMMARY"])
		summary.Write(s)
		if err != nil {
			var ee *exec.ExitError
			if ok := asExit(err, &ee); !ok {
				t.Fatalf("step %q: %v", st.Name, err)
			}
			run.exitCode, run.failed = ee.ExitCode(), st.Name
			break // the steps after a failure have no if: always()
		}
	}
	run.outputs = map[string]string{}
	for name, o := range a.Outputs {
		run.outputs[name] = expand(t, o.Value, ctx)
	}
	run.stdout, run.summary = log.String(), summary.String()
	return run
}

func asExit(err error, ee **exec.ExitError) bool {
	e, ok := err.(*exec.ExitError)
	*ee = e
	return ok
}

// jobEnv is the machine's environment less a job's own variables, with
// PATH set and env added.
func jobEnv(path []string, env []string) []string {
	var out []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "GITHUB_") || strings.HasPrefix(kv, "RUNNER_") || strings.HasPrefix(kv, "PATH=") {
			continue
		}
		out = append(out, kv)
	}
	out = append(out, "PATH="+strings.Join(path, string(os.PathListSeparator)))
	return append(out, env...)
}

// readOutputs reads a GITHUB_OUTPUT file: name=value lines, and
// name<<DELIMITER blocks.
func readOutputs(path string) (map[string]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			continue
		}
		if name, delim, ok := strings.Cut(line, "<<"); ok && !strings.Contains(name, "=") {
			var val []string
			for sc.Scan() && sc.Text() != delim {
				val = append(val, sc.Text())
			}
			out[name] = strings.Join(val, "\n")
			continue
		}
		name, val, ok := strings.Cut(line, "=")
		if !ok {
			return nil, fmt.Errorf("line %q: want name=value", line)
		}
		out[name] = val
	}
	return out, nil
}

var exprRe = regexp.MustCompile(`\$\{\{(.*?)\}\}`)

// expand fills in the ${{ }} expressions of s.
func expand(t *testing.T, s string, ctx map[string]string) string {
	return exprRe.ReplaceAllStringFunc(s, func(m string) string {
		return eval(t, exprRe.FindStringSubmatch(m)[1], ctx)
	})
}

// eval evaluates the expressions the action uses: a context reference,
// a string literal, and == or != between two of them.
func eval(t *testing.T, e string, ctx map[string]string) string {
	e = strings.TrimSpace(e)
	for _, op := range []string{"!=", "=="} {
		if l, r, ok := strings.Cut(e, op); ok {
			eq := eval(t, l, ctx) == eval(t, r, ctx)
			return strconv.FormatBool(eq == (op == "=="))
		}
	}
	if strings.HasPrefix(e, "'") && strings.HasSuffix(e, "'") && len(e) >= 2 {
		return strings.ReplaceAll(e[1:len(e)-1], "''", "'")
	}
	if !regexp.MustCompile(`^[\w.-]+$`).MatchString(e) {
		t.Fatalf("expression %q: the test's evaluator knows references, literals, == and != (in a run step's env or if)", e)
	}
	return ctx[e] // GitHub gives "" for what the context lacks
}

func truthy(s string) bool { return s != "" && s != "false" && s != "0" }

// fakeGH stands in for the GitHub CLI's `gh api` as the action calls it:
// list a pull request's comments (with --jq selecting by the marker),
// post one, update one. The comments live in $FAKE_GH_STORE; each call is
// logged there too.
func fakeGH() {
	store := os.Getenv("FAKE_GH_STORE")
	args := os.Args[1:]
	fail := func(f string, a ...any) { fmt.Fprintf(os.Stderr, "gh: "+f+"\n", a...); os.Exit(1) }
	if store == "" || len(args) == 0 || args[0] != "api" {
		fail("only api, with FAKE_GH_STORE set: %q", args)
	}
	if os.Getenv("GH_TOKEN") == "" {
		fail("no GH_TOKEN")
	}
	type comment struct {
		ID   int    `json:"id"`
		Body string `json:"body"`
	}
	var comments []comment
	if data, err := os.ReadFile(filepath.Join(store, "comments.json")); err == nil {
		json.Unmarshal(data, &comments)
	}
	method, path, jq, body := "GET", "", "", ""
	for i := 1; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--method" || a == "-X":
			i++
			method = args[i]
		case a == "--jq" || a == "-q":
			i++
			jq = args[i]
		case a == "-F" || a == "--field":
			i++
			k, v, _ := strings.Cut(args[i], "=")
			if k != "body" || !strings.HasPrefix(v, "@") {
				fail("field %q: want body=@FILE", args[i])
			}
			data, err := os.ReadFile(v[1:])
			if err != nil {
				fail("%v", err)
			}
			body = string(data)
		case a == "--paginate":
		case strings.HasPrefix(a, "-"):
			fail("flag %q", a)
		default:
			path = a
		}
	}
	f, _ := os.OpenFile(filepath.Join(store, "calls.log"), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o666)
	fmt.Fprintf(f, "%s %s\n", method, path)
	f.Close()
	list := regexp.MustCompile(`^repos/readmeter/demo/issues/7/comments$`)
	one := regexp.MustCompile(`^repos/readmeter/demo/issues/comments/(\d+)$`)
	switch {
	case method == "GET" && list.MatchString(path):
		m := regexp.MustCompile(`^\.\[\] \| select\(\.body \| startswith\("(.*)"\)\) \| \.id$`).FindStringSubmatch(jq)
		if m == nil {
			fail("--jq %q: the stand-in knows the action's one query", jq)
		}
		for _, c := range comments {
			if strings.HasPrefix(c.Body, m[1]) {
				fmt.Println(c.ID)
			}
		}
		return
	case method == "POST" && list.MatchString(path):
		comments = append(comments, comment{ID: 1000 + len(comments), Body: body})
	case method == "PATCH" && one.MatchString(path):
		id, _ := strconv.Atoi(one.FindStringSubmatch(path)[1])
		found := false
		for i := range comments {
			if comments[i].ID == id {
				comments[i].Body, found = body, true
			}
		}
		if !found {
			fail("no comment %d", id)
		}
	default:
		fail("%s %s: not a call the action makes", method, path)
	}
	data, _ := json.Marshal(comments)
	if err := os.WriteFile(filepath.Join(store, "comments.json"), data, 0o666); err != nil {
		fail("%v", err)
	}
	fmt.Println("{}")
}

// TestAction runs the action as a job would, on the embedded twin: walks
// within its budgets, then past one with a comment asked for (posted,
// then updated in place on the next run), then measure.
func TestAction(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the commands and runs every walk")
	}
	noGitHub(t)
	temp, workspace, store := t.TempDir(), t.TempDir(), t.TempDir()
	orig, err := os.ReadFile("../../specs/twin/budgets.json")
	if err != nil {
		t.Fatal(err)
	}
	budgetFile := filepath.Join(workspace, "budgets.json")
	write := func(data string) {
		if err := os.WriteFile(budgetFile, []byte(data), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	write(string(orig))
	env := []string{"FAKE_GH_STORE=" + store}
	const walksArgs = `run "$GITHUB_ACTION_PATH/specs/schellingaf" --walk http,start_tasks --budgets budgets.json --jobs 2`

	// Within budgets: exit 0, the tables in the summary, no comment.
	r := runAction(t, workspace, temp, map[string]string{"args": walksArgs + " --report walks.json"}, env)
	if r.exitCode != 0 || r.outputs["exit-code"] != "0" {
		t.Fatalf("within budgets: exit %d (%s), output exit-code %q\n%s", r.exitCode, r.failed, r.outputs["exit-code"], r.stdout)
	}
	if !regexp.MustCompile(`^### walks: every walk within its budgets\n\n\| walk +\| part +\| bytes \| tokens \(bytes/3\) \|\n`).MatchString(r.summary) {
		t.Errorf("the job's summary:\n%s", r.summary)
	}
	if got, _ := os.ReadFile(r.outputs["summary"]); string(got) != r.summary {
		t.Errorf("the summary output does not hold the job's summary")
	}
	if bin := r.outputs["bin"]; bin == "" || !strings.Contains(r.stdout, "readmeter v1: measure and walks built from") {
		t.Errorf("install: bin %q\n%s", bin, r.stdout)
	} else if runtime.GOOS == "linux" {
		// built without cgo: no dynamic loader to start
		for _, name := range []string{"measure", "walks"} {
			if interp := elfInterpreter(t, filepath.Join(bin, name)); interp != "" {
				t.Errorf("install: %s is linked dynamically (%s), not static", name, interp)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(workspace, "walks.json")); err != nil {
		t.Errorf("--report in the work space: %v", err)
	}
	if _, err := os.Stat(filepath.Join(store, "calls.log")); err == nil {
		t.Error("gh was called, though no comment was asked for")
	}

	// Past a budget, with a base and a comment: the step fails with exit
	// 1, the budget's line is annotated, and one comment holds old, new
	// and delta.
	moved := regexp.MustCompile(`"start_tasks": \d+`).ReplaceAllString(string(orig), `"start_tasks": 100`)
	write(moved)
	line := 1 + strings.Count(moved[:strings.Index(moved, `"start_tasks": 100`)], "\n")
	in := map[string]string{"args": walksArgs + " --base walks.json", "comment": "true"}
	r = runAction(t, workspace, temp, in, env)
	if r.exitCode != 1 || r.outputs["exit-code"] != "1" || r.failed != "Fail on the exit code" {
		t.Fatalf("over budget: exit %d at %q, output exit-code %q\n%s", r.exitCode, r.failed, r.outputs["exit-code"], r.stdout)
	}
	want := fmt.Sprintf("::error file=budgets.json,line=%d,title=FIRST_TASK_TOKENS.start_tasks::FIRST_TASK_TOKENS.start_tasks over budget by ", line)
	if !strings.Contains(r.stdout, want) {
		t.Errorf("no annotation at the budget's line: want %q in\n%s", want, r.stdout)
	}
	if !strings.Contains(r.stdout, "::error title=readmeter::walks exited 1: a budget or ceiling exceeded") {
		t.Errorf("the last step does not say why it failed:\n%s", r.stdout)
	}
	comments := func() []map[string]any {
		t.Helper()
		var cs []map[string]any
		data, err := os.ReadFile(filepath.Join(store, "comments.json"))
		if err != nil {
			t.Fatalf("no comment posted: %v\n%s", err, r.stdout)
		}
		if err := json.Unmarshal(data, &cs); err != nil {
			t.Fatal(err)
		}
		return cs
	}
	cs := comments()
	if len(cs) != 1 {
		t.Fatalf("%d comments, want 1", len(cs))
	}
	body := cs[0]["body"].(string)
	if !regexp.MustCompile(`^<!-- readmeter:readmeter -->\n### walks: 1 budget exceeded\n\n\| walk +\| part +\| old bytes \| new bytes \| +delta \|\n`).MatchString(body) ||
		!regexp.MustCompile(`\n\| all walks +\| total +\|`).MatchString(body) ||
		!regexp.MustCompile(`\n\| start_tasks +\| FIRST_TASK_TOKENS.start_tasks +\| tokens \(bytes/3\) +\|`).MatchString(body) {
		t.Errorf("the comment:\n%s", body)
	}

	// The next run updates the one comment.
	write(string(orig))
	r = runAction(t, workspace, temp, in, env)
	if r.exitCode != 0 {
		t.Fatalf("budgets restored: exit %d at %q\n%s", r.exitCode, r.failed, r.stdout)
	}
	cs = comments()
	if len(cs) != 1 || !strings.HasPrefix(cs[0]["body"].(string), "<!-- readmeter:readmeter -->\n### walks: every walk within its budgets\n") {
		t.Errorf("after a second run: %d comments, the first: %v", len(cs), cs[0]["body"])
	}
	calls, _ := os.ReadFile(filepath.Join(store, "calls.log"))
	if want := "GET repos/readmeter/demo/issues/7/comments\nPOST repos/readmeter/demo/issues/7/comments\nGET repos/readmeter/demo/issues/7/comments\nPATCH repos/readmeter/demo/issues/comments/1000\n"; string(calls) != want {
		t.Errorf("gh calls:\n%s\nwant:\n%s", calls, want)
	}

	// measure, on a capture of the twin: its tables in the summary.
	r = runAction(t, workspace, temp, map[string]string{"command": "measure", "args": `"$GITHUB_ACTION_PATH/captures/twin/tools-mcp.json"`}, env)
	if r.exitCode != 0 || !strings.HasPrefix(r.summary, "### measure: every ceiling and budget held\n") {
		t.Errorf("measure: exit %d at %q; summary:\n%s\n%s", r.exitCode, r.failed, r.summary, r.stdout)
	}

	// measure diff with fail-on: a new required parameter fails the step,
	// annotated on the tool's line of the new capture, the changes in the
	// summary; fail-on with another command is a usage error.
	for name, text := range map[string]string{
		"old.json": `{"tools":[` + "\n" + `{"name":"t","inputSchema":{"type":"object"}}]}`,
		"new.json": `{"tools":[` + "\n" + `{"name":"t","inputSchema":{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}}]}`,
	} {
		if err := os.WriteFile(filepath.Join(workspace, name), []byte(text), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	r = runAction(t, workspace, temp, map[string]string{"command": "measure", "args": "diff old.json new.json", "fail-on": "breaking"}, env)
	if r.exitCode != 1 || r.failed != "Fail on the exit code" ||
		!strings.Contains(r.stdout, "::error file=new.json,line=2,title=t%3A required-param-added::") ||
		!strings.HasPrefix(r.summary, "### measure diff: 1 breaking, 0 warnings, 0 compatible\n") {
		t.Errorf("measure diff, fail-on breaking: exit %d at %q; summary:\n%s\n%s", r.exitCode, r.failed, r.summary, r.stdout)
	}
	r = runAction(t, workspace, temp, map[string]string{"command": "measure", "args": "diff new.json new.json", "fail-on": "warning"}, env)
	if r.exitCode != 0 || !strings.HasPrefix(r.summary, "### measure diff: 0 breaking, 0 warnings, 0 compatible\n") {
		t.Errorf("measure diff, no change: exit %d at %q\n%s", r.exitCode, r.failed, r.stdout)
	}
	r = runAction(t, workspace, temp, map[string]string{"args": walksArgs, "fail-on": "breaking"}, env)
	if r.exitCode != 2 || !strings.Contains(r.stdout, "::error title=readmeter::fail-on: applies to measure diff") {
		t.Errorf("fail-on with walks: exit %d\n%s", r.exitCode, r.stdout)
	}

	// A command the action does not know: exit 2, said before anything is
	// built.
	r = runAction(t, workspace, temp, map[string]string{"command": "twin", "args": "--addr 127.0.0.1:0"}, env)
	if r.exitCode != 2 || r.failed != "Install measure and walks" || !strings.Contains(r.stdout, "::error title=readmeter::command: want measure or walks, not 'twin'") {
		t.Errorf("command twin: exit %d\n%s", r.exitCode, r.stdout)
	}
}

// elfInterpreter returns the program interpreter an ELF executable names
// (the dynamic loader), "" for a static one.
func elfInterpreter(t *testing.T, path string) string {
	t.Helper()
	f, err := elf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			b, _ := io.ReadAll(p.Open())
			return strings.TrimRight(string(b), "\x00")
		}
	}
	return ""
}

// TestExampleWorkflowsUseTheAction holds the example workflows to the
// action: every input they give it exists, and its arguments start with a
// command of walks (or measure's capture arguments).
func TestExampleWorkflowsUseTheAction(t *testing.T) {
	data, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var a actionFile
	if err := yaml.Unmarshal(data, &a); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("../../docs/examples/*.yml")
	uses := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var wf struct {
			Jobs map[string]struct {
				Steps []actionStep `yaml:"steps"`
			} `yaml:"jobs"`
		}
		if err := yaml.Unmarshal(data, &wf); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for job, j := range wf.Jobs {
			for _, st := range j.Steps {
				if st.Uses != "readmeter/readmeter@v1" {
					continue
				}
				uses++
				for k := range st.With {
					if _, ok := a.Inputs[k]; !ok {
						t.Errorf("%s: job %s: input %q: action.yml has no such input", f, job, k)
					}
				}
				sub, _, _ := strings.Cut(strings.TrimSpace(st.With["args"]), " ")
				if st.With["command"] == "" && sub != "run" && sub != "merge" && sub != "history" {
					t.Errorf("%s: job %s: args %q: want a walks command", f, job, st.With["args"])
				}
				// The survey walk reads SURVEY_BUDGET.spaces from the
				// budget file: a run of these specs without one exits 2.
				if sub == "run" && strings.Contains(st.With["args"], "specs/schellingaf") && !strings.Contains(st.With["args"], "--budgets ") {
					t.Errorf("%s: job %s: args %q: a run of specs/schellingaf needs --budgets (the survey walk reads SURVEY_BUDGET.spaces from it)", f, job, st.With["args"])
				}
			}
		}
	}
	if uses < 3 {
		t.Errorf("the example workflows use the action %d times", uses)
	}
}
