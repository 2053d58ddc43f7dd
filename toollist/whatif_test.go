package toollist

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/readmeter/readmeter/internal/benchcap"
	"github.com/readmeter/readmeter/internal/nodeoracle"
	"github.com/readmeter/readmeter/jsonjs"
)

// whatIfCombos are the transform lists checked: every order of every
// non-empty set of the three, and lean twice. "l" is lean, "d" drop empty
// output schemas, "w" the words.
var whatIfCombos = []string{"l", "d", "w", "ld", "dl", "lw", "wl", "dw", "wd", "ldw", "lwd", "dlw", "dwl", "wld", "wdl", "ll"}

func comboTransforms(combo string, w *Words) []Transform {
	var ts []Transform
	for _, c := range combo {
		switch c {
		case 'l':
			ts = append(ts, Lean())
		case 'd':
			ts = append(ts, DropEmptyOutputSchemas())
		case 'w':
			ts = append(ts, w.Transform())
		}
	}
	return ts
}

// whatIfOutcome is what a what-if makes of a capture: the savings (name,
// wire, model-read, changes, tools) and the message written after, or the
// error.
type whatIfOutcome struct {
	Savings []string `json:"savings"`
	Message string   `json:"message"`
	Err     bool     `json:"error"`
}

func savingLines(s []Saving) []string {
	out := []string{}
	for _, x := range s {
		out = append(out, fmt.Sprintf("%s %d %d %d %s", x.Name, x.WireSavingBytes, x.ModelReadSavingBytes, x.Changes, strings.Join(x.Tools, ",")))
	}
	return out
}

// goWhatIf runs WhatIf on the capture at path and returns the outcome; the
// message is the one of the capture written, as its own reader finds it.
func goWhatIf(t *testing.T, path, combo string, w *Words, parsed bool) whatIfOutcome {
	t.Helper()
	c, err := readCapture(path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var buf bytes.Buffer
	whatIf := whatIf
	if parsed {
		whatIf = whatIfParsed
	}
	s, err := whatIf(c, nil, comboTransforms(combo, w), &buf)
	if err != nil {
		return whatIfOutcome{Err: true}
	}
	var s2 []Saving
	if s2, err = whatIf(c, nil, comboTransforms(combo, w), nil); err != nil {
		t.Fatalf("writing accepts what measuring alone refuses: %v", err)
	}
	if a, b := savingLines(s), savingLines(s2); strings.Join(a, "\n") != strings.Join(b, "\n") {
		t.Fatalf("savings differ when writing:\n%s\n%s", a, b)
	}
	// The same what-ifs applied while the capture is read and measured,
	// every tool in a batch of its own.
	defer func(n int) { prescanBatch = n }(prescanBatch)
	prescanBatch = 1
	ts := comboTransforms(combo, w)
	c3, err := Open(path, Options{Transforms: ts})
	if err != nil {
		t.Fatalf("applied while reading, refused: %v", err)
	}
	defer c3.Close()
	s3 := c3.Savings
	if a, b := savingLines(s), savingLines(s3); strings.Join(a, "\n") != strings.Join(b, "\n") {
		t.Fatalf("savings differ when applied while reading:\n%s\n%s", a, b)
	}
	a, err := readAnswer("written", buf.Bytes(), "tools/list answer")
	if err != nil {
		t.Fatalf("the capture written: %v\n%s", err, buf.Bytes())
	}
	if a.form != c.Form {
		t.Fatalf("written as %v, read as %v", a.form, c.Form)
	}
	if c.Form != EventStream && c.ans.newline != a.newline {
		t.Fatalf("final newline %v, was %v", a.newline, c.ans.newline)
	}
	return whatIfOutcome{Savings: savingLines(s), Message: strings.TrimRight(string(a.msg), " \t\r\n")}
}

// deriveWords writes a words file for a capture: a new description for
// its first tool, new texts at up to two paths that exist in the second
// tool's inputSchema, both for the third, and a new description for the
// last tool.
func deriveWords(t *testing.T, c *Capture, dir string, k int) string {
	t.Helper()
	words := map[string]string{}
	label := func(i int) string {
		v, _ := c.tool(i)
		name, _ := toolLabel(v, i)
		return name
	}
	paths := func(i int) []string {
		v, _ := c.tool(i)
		s, ok := v.Get("inputSchema")
		if !ok {
			return nil
		}
		var out []string
		var walk func(v jsonjs.Value, at string)
		walk = func(v jsonjs.Value, at string) {
			if len(out) >= 2 {
				return
			}
			switch v.Kind() {
			case jsonjs.Object:
				for _, m := range v.Members() {
					walk(m.Value, at+"/"+escapePointer([]string{m.Key}))
				}
			case jsonjs.Array:
				for j, e := range v.Elems() {
					walk(e, fmt.Sprintf("%s/%d", at, j))
				}
			default:
				if at != "" {
					out = append(out, at)
				}
			}
		}
		walk(s, "")
		return out
	}
	n := len(c.Tools)
	if n > 0 {
		words[label(0)] = "First, \u00e9 \"quoted\" \U0001F600."
		words[label(n-1)] = "Last."
	}
	for _, i := range []int{1, 2} {
		if i >= n {
			break
		}
		for j, p := range paths(i) {
			words[label(i)+":"+p] = fmt.Sprintf("text %d\n", j)
		}
		if i == 2 {
			words[label(i)] = ""
		}
	}
	data, err := json.Marshal(words)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, fmt.Sprintf("words-%d.json", k))
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// whatIfNodeJS applies the transforms to each job's message the way the
// service's code would, in JavaScript, and writes one JSON outcome per
// job: a job is {msg, form, words, combo} with file paths.
const whatIfNodeJS = `
const fs = require('fs');
const MAX = 9007199254740991;
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const rebuild = (o, f) => Object.fromEntries(Object.entries(o).flatMap(f));
function lean(v, count) {
  if (Array.isArray(v)) return v.map((x) => lean(x, count));
  if (!isObject(v)) return v;
  return rebuild(v, ([k, x]) => {
    if (k === '$schema' || (k === 'maximum' && x === MAX)) { count.n++; return []; }
    return [[k, lean(x, count)]];
  });
}
function leanTool(t) {
  const count = { n: 0 };
  const out = rebuild(t, ([k, x]) => [[k, k === 'inputSchema' || k === 'outputSchema' ? lean(x, count) : x]]);
  return [out, count.n];
}
function dropTool(t) {
  const s = t.outputSchema;
  if (!isObject(s) || (isObject(s.properties) && Object.keys(s.properties).length > 0)) return [t, 0];
  return [rebuild(t, ([k, x]) => (k === 'outputSchema' ? [] : [[k, x]])), 1];
}
function setAt(v, toks, i, text) {
  if (i === toks.length) return text;
  const tok = toks[i];
  if (Array.isArray(v)) {
    if (!/^(0|[1-9][0-9]*)$/.test(tok) || Number(tok) >= v.length) throw new Error('missing');
    return v.map((x, j) => (j === Number(tok) ? setAt(x, toks, i + 1, text) : x));
  }
  if (!isObject(v) || !Object.prototype.hasOwnProperty.call(v, tok)) throw new Error('missing');
  return rebuild(v, ([k, x]) => [[k, k === tok ? setAt(x, toks, i + 1, text) : x]]);
}
function setMember(o, key, val) {
  if (Object.prototype.hasOwnProperty.call(o, key)) return rebuild(o, ([k, x]) => [[k, k === key ? val : x]]);
  return Object.fromEntries([...Object.entries(o), [key, val]]);
}
function wordsTransform(words, used) {
  return (t, label) => {
    const mine = Object.keys(words).filter((k) => (k.includes(':/') ? k.slice(0, k.indexOf(':/')) : k) === label);
    if (mine.length === 0) return [t, 0];
    used.add(label);
    let n = 0;
    for (const k of mine) {
      if (!k.includes(':/')) { t = setMember(t, 'description', words[k]); n++; }
    }
    for (const k of mine) {
      if (!k.includes(':/')) continue;
      if (!Object.prototype.hasOwnProperty.call(t, 'inputSchema')) throw new Error('no inputSchema');
      const toks = k.slice(k.indexOf(':/') + 2).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
      t = setMember(t, 'inputSchema', setAt(t.inputSchema, toks, 0, words[k]));
      n++;
    }
    return [t, n];
  };
}
const bytes = (v) => Buffer.byteLength(JSON.stringify(v), 'utf8');
const read = (t) => bytes({ name: t.name, description: t.description, input_schema: t.inputSchema });
const names = { l: 'lean', d: 'drop_empty_output_schemas', w: 'words' };
const jobs = JSON.parse(fs.readFileSync(process.argv[1], 'utf8'));
const out = [];
for (const job of jobs) {
  try {
    const msg = JSON.parse(fs.readFileSync(job.msg, 'utf8'));
    const holder = job.form === 'result' ? msg : msg.result;
    const words = job.words ? JSON.parse(fs.readFileSync(job.words, 'utf8')) : {};
    const used = new Set();
    const steps = [...job.combo].map((c) => (c === 'l' ? leanTool : c === 'd' ? dropTool : wordsTransform(words, used)));
    const savings = [...job.combo].map((c) => ({ name: names[c], wire: 0, read: 0, changes: 0, tools: [] }));
    const tools = holder.tools.map((t, i) => {
      const label = typeof t.name === 'string' ? t.name : 'tools[' + i + ']';
      steps.forEach((step, k) => {
        const [nt, n] = step(t, label);
        if (n > 0) {
          const s = savings[k];
          s.wire += bytes(t) - bytes(nt);
          s.read += read(t) - read(nt);
          s.changes += n;
          s.tools.push(label);
          t = nt;
        }
      });
      return t;
    });
    if (job.combo.includes('w')) {
      for (const k of Object.keys(words)) {
        const label = k.includes(':/') ? k.slice(0, k.indexOf(':/')) : k;
        if (!used.has(label)) throw new Error('unused');
      }
    }
    holder.tools = tools;
    out.push({
      savings: savings.map((s) => [s.name, s.wire, s.read, s.changes, s.tools.join(',')].join(' ')),
      message: Buffer.from(JSON.stringify(msg), 'utf8').toString('base64'),
      error: false,
    });
  } catch (e) {
    out.push({ savings: null, message: '', error: true });
  }
}
process.stdout.write(JSON.stringify(out));
`

// whatIfCaptures lists the captures the what-if tests run on: every
// capture of the Node corpus that Read accepts.
func whatIfCaptures(t *testing.T) []string {
	var out []string
	for _, p := range nodeCorpus(t) {
		if c, err := readCapture(p); err == nil {
			out = append(out, p)
			c.Close()
		}
	}
	return out
}

// TestWhatIfAgainstNode applies every combination of the transforms to
// every capture, in Go (the walk over the text and the parsed path) and in
// Node: the savings, the tools changed and the bytes of the capture
// written after must be the same, or all three refuse.
func TestWhatIfAgainstNode(t *testing.T) {
	node, err := nodeoracle.NodePath()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	type job struct {
		Msg   string `json:"msg"`
		Form  string `json:"form"`
		Words string `json:"words"`
		Combo string `json:"combo"`
		path  string
		words *Words
	}
	var jobs []job
	for k, path := range whatIfCaptures(t) {
		c, _ := readCapture(path)
		msgPath := filepath.Join(dir, fmt.Sprintf("msg-%d.json", k))
		if err := os.WriteFile(msgPath, c.ans.msg, 0o644); err != nil {
			t.Fatal(err)
		}
		wp := deriveWords(t, c, dir, k)
		c.Close()
		w, err := ReadWords(wp)
		if err != nil {
			t.Fatal(err)
		}
		form := "rpc"
		if c.Form == Result {
			form = "result"
		}
		for _, combo := range whatIfCombos {
			jobs = append(jobs, job{Msg: msgPath, Form: form, Words: wp, Combo: combo, path: path, words: w})
		}
	}
	jobsPath := filepath.Join(dir, "jobs.json")
	data, _ := json.Marshal(jobs)
	if err := os.WriteFile(jobsPath, data, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, "-e", whatIfNodeJS, jobsPath)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v: %s", err, stderr.String())
	}
	var want []whatIfOutcome
	if err := json.Unmarshal(out, &want); err != nil || len(want) != len(jobs) {
		t.Fatalf("node answered %d of %d jobs (%v)", len(want), len(jobs), err)
	}
	changed, refused := 0, 0
	for i, j := range jobs {
		t.Run(strings.TrimPrefix(j.path, "../")+"/"+j.Combo, func(t *testing.T) {
			w := want[i]
			if !w.Err {
				msg, _ := base64.StdEncoding.DecodeString(w.Message)
				w.Message = string(msg)
			}
			got := goWhatIf(t, j.path, j.Combo, j.words, false)
			parsed := goWhatIf(t, j.path, j.Combo, j.words, true)
			if got.Err != w.Err || parsed.Err != w.Err {
				t.Fatalf("refused: walk %v, parsed %v, Node %v", got.Err, parsed.Err, w.Err)
			}
			if w.Err {
				refused++
				return
			}
			for _, g := range []struct {
				name string
				o    whatIfOutcome
			}{{"walk", got}, {"parsed", parsed}} {
				if a, b := strings.Join(g.o.Savings, "\n"), strings.Join(w.Savings, "\n"); a != b {
					t.Errorf("%s savings:\n%s\nNode:\n%s", g.name, a, b)
				}
				if g.o.Message != w.Message {
					t.Errorf("%s writes %s", g.name, nodeoracle.Diff([]byte(g.o.Message), []byte(w.Message)))
				}
			}
			if !strings.Contains(strings.Join(w.Savings, " "), " 0 0 0 ") {
				changed++
			}
		})
	}
	t.Logf("%d jobs, %d with changes in every transform, %d refused", len(jobs), changed, refused)
	if changed < 50 || refused < 3 {
		t.Errorf("%d outcomes with changes in every transform and %d refused, of %d: the comparison proves little", changed, refused, len(jobs))
	}
}

// TestWhatIfParallel checks the walk over a long list, done on several
// goroutines when nothing is written, against the same walk writing (one
// goroutine) and against the parsed path, with tools the walk leaves to
// the parsed path spread through the list.
func TestWhatIfParallel(t *testing.T) {
	dir, path, c := longTrapCapture(t)
	wp := deriveWords(t, c, dir, 0)
	w, err := ReadWords(wp)
	if err != nil {
		t.Fatal(err)
	}
	for _, combo := range whatIfCombos {
		t.Run(combo, func(t *testing.T) {
			// applied while reading: before Measure, and after it
			var walked [2][]Saving
			var rerr [2]error
			for k := range walked {
				ts := comboTransforms(combo, w)
				rc, p, err := read(path, Options{Transforms: ts})
				if err != nil {
					t.Fatal(err)
				}
				if p.walked == nil {
					t.Fatal("nothing applied while reading")
				}
				if k == 1 {
					if _, err := measure(rc, p); err != nil {
						t.Fatal(err)
					}
				}
				walked[k], rerr[k] = whatIf(rc, p, ts, nil)
				rc.Close()
			}
			par, err := whatIf(c, nil, comboTransforms(combo, w), nil)
			var buf, one bytes.Buffer
			seq, serr := whatIf(c, nil, comboTransforms(combo, w), &buf)
			// written on one goroutine
			procs := runtime.GOMAXPROCS(1)
			seq1, serr1 := whatIf(c, nil, comboTransforms(combo, w), &one)
			runtime.GOMAXPROCS(procs)
			if (serr == nil) != (serr1 == nil) {
				t.Fatalf("writing: %v, on one goroutine: %v", serr, serr1)
			}
			if serr == nil {
				if !bytes.Equal(buf.Bytes(), one.Bytes()) {
					t.Errorf("written on several goroutines, %s", nodeoracle.Diff(buf.Bytes(), one.Bytes()))
				}
				if a, b := strings.Join(savingLines(seq), "\n"), strings.Join(savingLines(seq1), "\n"); a != b {
					t.Errorf("written on several goroutines:\n%.600s\non one:\n%.600s", a, b)
				}
			}
			parsed, perr := whatIfParsed(c, nil, comboTransforms(combo, w), nil)
			if (err == nil) != (serr == nil) || (err == nil) != (perr == nil) || (err == nil) != (rerr[0] == nil) || (err == nil) != (rerr[1] == nil) {
				t.Fatalf("errors: parallel %v, writing %v, parsed %v, while reading %v and %v", err, serr, perr, rerr[0], rerr[1])
			}
			if err != nil {
				return
			}
			a, s, p := strings.Join(savingLines(par), "\n"), strings.Join(savingLines(seq), "\n"), strings.Join(savingLines(parsed), "\n")
			if a != s || a != p {
				t.Errorf("parallel:\n%.600s\nwriting:\n%.600s\nparsed:\n%.600s", a, s, p)
			}
			for k, r := range walked {
				if got := strings.Join(savingLines(r), "\n"); got != a {
					t.Errorf("applied while reading (measured first: %v):\n%.600s\nparallel:\n%.600s", k == 1, got, a)
				}
			}
		})
	}
}

// longTrapCapture writes a list of 1,500 tools, every seventh a trap of
// testdata/adversarial/whatif-traps.json that the walk leaves to the
// parsed path or that tests its corners, and reads it: the directory, the
// capture's path, and the capture.
func longTrapCapture(t *testing.T) (dir, path string, c *Capture) {
	t.Helper()
	traps, err := readCapture("testdata/adversarial/whatif-traps.json")
	if err != nil {
		t.Fatal(err)
	}
	gen, err := parseCapture("g", genCapture(60))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	b.WriteString(`{"result":{"tools":[`)
	for i := range 1500 {
		if i > 0 {
			b.WriteByte(',')
		}
		if i%7 == 3 {
			b.Write(traps.Tools[i%len(traps.Tools)])
		} else {
			b.Write(gen.Tools[i%len(gen.Tools)])
		}
	}
	b.WriteString("]}}")
	dir = t.TempDir()
	path = filepath.Join(dir, "long.json")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if c, err = readCapture(path); err != nil {
		t.Fatal(err)
	}
	if len(c.Tools) < parallelAbove {
		t.Fatalf("%d tools: too few for the parallel walk", len(c.Tools))
	}
	return dir, path, c
}

// TestFiguresWhileWalking: the figures of tools measured while the
// what-ifs walk them (the walk's first stage gives the figures), or
// while their model-read text is written for counting, are those of the same capture read without either, for
// every transform list, tool by tool.
func TestFiguresWhileWalking(t *testing.T) {
	dir, path, c := longTrapCapture(t)
	want, err := measure(c, nil)
	if err != nil {
		t.Fatal(err)
	}
	w, err := ReadWords(deriveWords(t, c, dir, 0))
	if err != nil {
		t.Fatal(err)
	}
	counters := []Counter{textCounter{"a", 1000}}
	// and in stages: the first stage's figures, or none when it is parsed
	for _, combo := range append([]string{"counted", "ldwldw", "lu", "ulw"}, whatIfCombos...) {
		t.Run(combo, func(t *testing.T) {
			o := Options{Transforms: stageTransforms(combo, w)}
			if combo == "counted" {
				// measured from the model-read text the counters read
				o = Options{Counters: counters}
			}
			rc, p, err := read(path, o)
			if err != nil {
				t.Fatal(err)
			}
			defer rc.Close()
			if combo == "counted" && (len(p.tokens) == 0 || p.tokens[0] < 0) {
				t.Fatal("nothing counted while reading")
			}
			if combo != "counted" && p.walked == nil {
				t.Fatal("nothing applied while reading")
			}
			got, err := measure(rc, p)
			if err != nil {
				t.Fatal(err)
			}
			for i := range want.PerTool {
				if g, x := got.PerTool[i], want.PerTool[i]; !reflect.DeepEqual(g, x) {
					t.Fatalf("tool %d: %+v\nwithout what-ifs %+v\n(%s)", i, g, x, c.Tools[i])
				}
			}
			g, x := *got, *want
			g.PerTool, x.PerTool = nil, nil
			if !reflect.DeepEqual(g, x) {
				t.Errorf("%+v\nwithout what-ifs %+v", g, x)
			}
		})
	}
}

// whatIfParsed is whatIf with every tool transformed as a parsed value,
// one after the other in the capture's order: the oracle the walk is held
// to (Node is the oracle of both).
func whatIfParsed(c *Capture, _ *pass, ts []Transform, w io.Writer) ([]Saving, error) {
	savings := savingsOf(ts)
	for k := range savings {
		savings[k].Tools = []string{}
	}
	// one stage of parsed tools: every transform's apply, the walk's in
	// transform_test.go
	r := newRunner(c, ts, []stage{{n: len(ts)}})
	tool := func(i int) ([]byte, error) {
		if err := r.one(i, w != nil); err != nil {
			return nil, err
		}
		r.record(savings, i)
		return r.res.out, nil
	}
	if w != nil {
		em := &emitter{w: w}
		if err := c.encode(em, tool); err != nil {
			return nil, err
		}
		if err := em.flush(); err != nil {
			return nil, err
		}
	} else {
		for i := range c.Tools {
			if _, err := tool(i); err != nil {
				return nil, err
			}
		}
	}
	for _, t := range ts {
		if err := t.finish(); err != nil {
			return nil, err
		}
	}
	return savings, nil
}

// stageCombos are transform lists the walk takes in several stages: with
// the finders, which rewrite the parsed tool, between its transforms
// ("u" DropUnusedDefs, "h" HoistRepeated, "s" SDKKeyOrder), with more
// transforms than the walk follows at once, or the words twice; and
// lists of the finders alone, one stage, where a transform that does not
// say what it cut follows those that do ("uhs") or comes first ("su").
var stageCombos = []string{"u", "lu", "ul", "ulw", "hlwd", "wuld", "luwh", "dwhul", "shl", "lshw", "lllldd", "wlw", "ldwldw", "uhuh", "uhs", "su"}

func stageTransforms(combo string, w *Words) []Transform {
	var ts []Transform
	for _, c := range combo {
		switch c {
		case 'u':
			ts = append(ts, DropUnusedDefs())
		case 'h':
			ts = append(ts, HoistRepeated())
		case 's':
			ts = append(ts, SDKKeyOrder())
		default:
			ts = append(ts, comboTransforms(string(c), w)...)
		}
	}
	return ts
}

// warningLines returns the warnings the transforms gave.
func warningLines(ts []Transform) []string {
	var out []string
	for _, t := range ts {
		if w, ok := t.(Warner); ok {
			out = append(out, w.Warnings()...)
		}
	}
	return out
}

// TestStagesAgainstParsed holds the what-ifs taken in stages (the walk's
// transforms walked, the finders applied to the parsed tool between
// them) to every transform applied to the parsed tool in turn, on a long
// list of tools with shared definitions, repeated subschemas and the
// walk's traps: measuring on several goroutines, writing, and while
// reading, with the savings, the warnings and the bytes written.
func TestStagesAgainstParsed(t *testing.T) {
	traps, err := readCapture("testdata/adversarial/whatif-traps.json")
	if err != nil {
		t.Fatal(err)
	}
	defs, err := parseCapture("d", benchcap.GenerateDefs(40, 1))
	if err != nil {
		t.Fatal(err)
	}
	gen, err := parseCapture("g", genCapture(40))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	b.WriteString(`{"result":{"tools":[`)
	for i := range 700 {
		if i > 0 {
			b.WriteByte(',')
		}
		switch i % 3 {
		case 0:
			b.Write(defs.Tools[i%len(defs.Tools)])
		case 1:
			b.Write(traps.Tools[i%len(traps.Tools)])
		default:
			b.Write(gen.Tools[i%len(gen.Tools)])
		}
	}
	b.WriteString("]}}")
	dir := t.TempDir()
	path := filepath.Join(dir, "stages.json")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := readCapture(path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	w, err := ReadWords(deriveWords(t, c, dir, 0))
	if err != nil {
		t.Fatal(err)
	}
	for _, combo := range stageCombos {
		t.Run(combo, func(t *testing.T) {
			if n := len(stagesOf(stageTransforms(combo, w))); n < 2 && !strings.Contains("u uhuh uhs su", combo) {
				t.Fatalf("%d stage", n)
			}
			outcome := func(s []Saving, err error, ts []Transform) string {
				if err != nil {
					return "error: " + err.Error()
				}
				return strings.Join(append(savingLines(s), warningLines(ts)...), "\n")
			}
			ts := stageTransforms(combo, w)
			var want bytes.Buffer
			s, err := whatIfParsed(c, nil, ts, &want)
			wantOut := outcome(s, err, ts)
			ts = stageTransforms(combo, w)
			s, err = whatIf(c, nil, ts, nil)
			if got := outcome(s, err, ts); got != wantOut {
				t.Errorf("measured:\n%.800s\nparsed:\n%.800s", got, wantOut)
			}
			ts = stageTransforms(combo, w)
			var buf bytes.Buffer
			s, err = whatIf(c, nil, ts, &buf)
			if got := outcome(s, err, ts); got != wantOut {
				t.Errorf("written:\n%.800s\nparsed:\n%.800s", got, wantOut)
			}
			if err == nil && !bytes.Equal(buf.Bytes(), want.Bytes()) {
				t.Errorf("writes %s", nodeoracle.Diff(buf.Bytes(), want.Bytes()))
			}
			ts = stageTransforms(combo, w)
			rc, p, err := read(path, Options{Transforms: ts})
			if err != nil {
				t.Fatal(err)
			}
			defer rc.Close()
			s, err = whatIf(rc, p, ts, nil)
			if got := outcome(s, err, ts); got != wantOut {
				t.Errorf("while reading:\n%.800s\nparsed:\n%.800s", got, wantOut)
			}
		})
	}
}

// TestWordsPathsAgainstParsed holds the walk's words to the words applied
// to the parsed tool, in their order, where the paths meet: a path
// through another's value, the same value twice, a value Lean removes
// before the words or after them, more paths than bits in a word, and
// paths through keys the walk meets escaped or repeated.
func TestWordsPathsAgainstParsed(t *testing.T) {
	var props strings.Builder
	many := map[string]string{}
	for i := range 70 {
		fmt.Fprintf(&props, `,"p%d":{"type":"string","description":"d"}`, i)
		many[fmt.Sprintf("a:/properties/p%d/description", i)] = fmt.Sprint(i)
	}
	manyJSON, _ := json.Marshal(many)
	c, err := parseCapture("x.json", []byte(`{"tools":[{"name":"a","description":"old","inputSchema":{"$schema":"s","type":"object","properties":{`+
		`"x":{"type":"integer","maximum":9007199254740991,"description":"x"},"l":{"items":[{"description":"e"},"f"]},"q\"\\u00e9":{"description":"q"},`+
		`"r":{"description":"r1","description":"r2"},"10":{"description":"ten"},"2":{"description":"two"}`+props.String()+`}}},`+
		`{"name":"b","inputSchema":{"properties":{"x":1}}},{"name":"c","inputSchema":[{"a":1}]},{"name":"d","inputSchema":"s"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	outcomes := map[bool]int{}
	defer func() {
		if outcomes[true] < 40 || outcomes[false] < 40 {
			t.Errorf("%d applied and %d refused: the comparison proves little", outcomes[true], outcomes[false])
		}
	}()
	for _, words := range []string{
		`{"a:/properties/x":"X","a:/properties/x/description":"D"}`,
		`{"a:/properties/x/description":"D","a:/properties/x":"X"}`,
		`{"a:/properties/x/description":"D","a:/properties/x":"X","a:/properties/x/type":"T"}`,
		`{"a:/properties/x/description":"D","a:/properties/x/description":"E"}`,
		`{"a:/properties/x/description":"D","a:/properties/x/d~0escription":"E","a:/properties/x/d~00escription":"F"}`,
		`{"a:/properties/x/~2":"D","a:/properties/x/~02":"E"}`,
		`{"a:/properties/x/maximum":"M"}`,
		`{"a:/$schema":"S","a":"new"}`,
		`{"a:/properties/x/maximum/y":"M"}`,
		`{"a:/properties/l/items/1":"F","a:/properties/l/items/0":"E","a:/properties/l":"L"}`,
		`{"a:/properties/l/items/1/x":"F"}`,
		`{"a:/properties/l/items/2":"F"}`,
		`{"a:/properties/q\"é/description":"Q","a:/properties/r/description":"R"}`,
		`{"a:/properties/10/description":"T","a:/properties/2":"2"}`,
		string(manyJSON),
		`{"b:/properties/x":"X"}`,
		`{"b:/properties/x/y":"X"}`,
		`{"c:/0/a":"A","c:/1":"B"}`,
		`{"c:/0/a":"A"}`,
		`{"d:/0":"A"}`,
		`{"d":"D","c":"C"}`,
	} {
		w, err := ParseWords("w", []byte(words))
		if err != nil {
			t.Fatal(err)
		}
		for _, combo := range []string{"w", "lw", "wl", "lwl", "dwl", "wdl"} {
			var got, want bytes.Buffer
			s, err := whatIf(c, nil, comboTransforms(combo, w), &got)
			ps, perr := whatIfParsed(c, nil, comboTransforms(combo, w), &want)
			outcomes[perr == nil]++
			if fmt.Sprint(err) != fmt.Sprint(perr) {
				t.Errorf("%s %s: error %v, parsed %v", words, combo, err, perr)
				continue
			}
			if a, b := strings.Join(savingLines(s), "\n"), strings.Join(savingLines(ps), "\n"); a != b {
				t.Errorf("%s %s:\n%s\nparsed:\n%s", words, combo, a, b)
			}
			if err == nil && !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Errorf("%s %s: writes %s", words, combo, nodeoracle.Diff(got.Bytes(), want.Bytes()))
			}
		}
	}
}
