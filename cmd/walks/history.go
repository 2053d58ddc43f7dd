package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/readmeter/readmeter/budgets"
	"github.com/readmeter/readmeter/internal/atomicfile"
	"github.com/readmeter/readmeter/internal/cli"
	"github.com/readmeter/readmeter/internal/escape"
	"github.com/readmeter/readmeter/internal/ghactions"
	"github.com/readmeter/readmeter/internal/jsonout"
	"github.com/readmeter/readmeter/internal/table"
	"github.com/readmeter/readmeter/internal/units"
)

// historyDoc is what walks history's help says between the usage and the flags.
const historyDoc = `Reads the budget file's versions from git (following renames) and prints,
per budget, its value at each commit that moved it: the date, the short
commit, the subject, the value and the delta from the value before. With
--since REV, the history starts at REV's version of the file.

--markdown writes a table and a Mermaid xychart-beta line chart per block
of budgets (GitHub draws it in a step summary, a pull request or a
comment); a budget is 0 on the chart where it was not declared. --svg
writes the same charts as one standalone SVG image.
`

func historyCmd(stdout, stderr io.Writer, args []string) error {
	c := cli.NewCommand("walks history", "walks history --budgets FILE [--since REV] [--markdown] [--svg FILE]")
	c.Doc = historyDoc
	fs := c.Flags
	var file, since, svg string
	var markdown, asJSON, github bool
	c.Budgets(&file)
	fs.StringVar(&since, "since", "", "start at the file's version in revision `REV` (a commit, tag or branch)")
	c.Markdown(&markdown)
	c.JSON(&asJSON)
	fs.StringVar(&svg, "svg", "", "also write the charts as a standalone SVG image to `FILE`")
	c.GitHub(&github)
	if help, err := c.Parse(stdout, args); help || err != nil {
		return err
	}
	if file == "" || fs.NArg() > 0 {
		return c.Usagef("want --budgets FILE and no other argument")
	}
	if asJSON && markdown {
		return c.Usagef("--json and --markdown are two outputs; give one")
	}
	if svg != "" {
		if st, err := os.Stat(filepath.Dir(svg)); err != nil || !st.IsDir() {
			return c.Errorf("--svg %s: the directory %s does not exist; create it first", svg, filepath.Dir(svg))
		}
	}
	versions, err := gitVersions(file, since)
	if err != nil {
		return fmt.Errorf("history: %v", err)
	}
	series, skipped := budgets.History(versions)
	seq := map[string]int{}
	for i, v := range versions {
		seq[v.Commit] = i
	}
	blocks := historyBlocks(series)
	charts := func() []chart { return chartsOf(blocks, versions, seq) }
	if svg != "" {
		var buf bytes.Buffer
		writeSVG(&buf, charts())
		if err := atomicfile.Write(svg, buf.Bytes()); err != nil {
			return fmt.Errorf("history: --svg %s: %v", svg, err)
		}
	}
	if github {
		var buf bytes.Buffer
		fmt.Fprintf(&buf, "### walks history: %s\n\n", escape.Markdown(file))
		writeHistory(&buf, blocks, charts(), skipped, true)
		buf.WriteString("\n")
		if err := ghactions.AppendSummary(buf.Bytes()); err != nil {
			fmt.Fprintf(stderr, "walks: warning: --github: the step summary: %s\n", escape.Term(err.Error()))
		}
	}
	if asJSON {
		return writeHistoryJSON(stdout, series, skipped)
	}
	writeHistory(stdout, blocks, charts(), skipped, markdown)
	return nil
}

// writeHistory writes a table per block, in markdown with its chart.
func writeHistory(w io.Writer, blocks []historyBlock, charts []chart, skipped []string, markdown bool) {
	for i, blk := range blocks {
		if i > 0 {
			fmt.Fprintln(w)
		}
		if markdown {
			fmt.Fprintf(w, "### %s\n\n", escape.Markdown(blk.name))
		} else {
			fmt.Fprintln(w, escape.Term(blk.name))
		}
		historyTable(blk.series).Write(w, format(markdown))
		if markdown {
			fmt.Fprintln(w)
			writeMermaid(w, charts[i])
		}
	}
	if len(skipped) > 0 {
		fmt.Fprintln(w)
		for _, s := range skipped {
			if markdown {
				fmt.Fprintf(w, "> warning: %s\n", escape.Markdown(s))
			} else {
				fmt.Fprintf(w, "warning: %s\n", escape.Term(s))
			}
		}
	}
}

// historyBlock is the series of one block of budgets.
type historyBlock struct {
	name   string
	series []budgets.Series
}

func historyBlocks(series []budgets.Series) []historyBlock {
	var out []historyBlock
	at := map[string]int{}
	for _, s := range series {
		i, ok := at[s.Block()]
		if !ok {
			i = len(out)
			at[s.Block()] = i
			out = append(out, historyBlock{name: s.Block()})
		}
		out[i].series = append(out[i].series, s)
	}
	return out
}

// label is a budget's name within its block ("plugin"), or its whole
// name when it is a block of its own.
func label(name string) string {
	if _, key, ok := strings.Cut(name, "."); ok {
		return key
	}
	return name
}

func historyTable(series []budgets.Series) *table.Table {
	t := table.New("budget", "date", "commit", "subject", "value", "delta").Right(4, 5)
	for _, s := range series {
		name := label(s.Name)
		for _, c := range s.Changes {
			value, delta := units.Group(c.Value), "-"
			switch {
			case c.Removed:
				value = "removed"
			case c.Old != nil:
				delta = units.Signed(c.Value-*c.Old) + " (" + units.Delta(*c.Old, c.Value) + ")"
			}
			t.Add(name, c.Version.Date.UTC().Format(time.DateOnly), c.Version.Short, clip(c.Version.Subject, 60), value, delta)
			name = ""
		}
	}
	return t
}

// clip cuts s to n characters, marking the cut with an ellipsis.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

func writeHistoryJSON(w io.Writer, series []budgets.Series, skipped []string) error {
	type change struct {
		Commit  string `json:"commit"`
		Date    string `json:"date"`
		Subject string `json:"subject"`
		Path    string `json:"path"`
		Value   *int64 `json:"value"`
		Old     *int64 `json:"old"`
	}
	type budget struct {
		Name    string   `json:"name"`
		Changes []change `json:"changes"`
	}
	doc := struct {
		Budgets  []budget `json:"budgets"`
		Warnings []string `json:"warnings"`
	}{Budgets: []budget{}, Warnings: append([]string{}, skipped...)}
	for _, s := range series {
		b := budget{Name: s.Name}
		for _, c := range s.Changes {
			ch := change{Commit: c.Version.Commit, Date: c.Version.Date.UTC().Format(time.RFC3339), Subject: c.Version.Subject, Path: c.Version.Path, Old: c.Old}
			if !c.Removed {
				v := c.Value
				ch.Value = &v
			}
			b.Changes = append(b.Changes, ch)
		}
		doc.Budgets = append(doc.Budgets, b)
	}
	return jsonout.Encode(w, doc)
}

// gitVersions returns the versions of path in git, oldest first: with
// since, the version at since, then those of since..HEAD; else every
// version. Renames are followed.
func gitVersions(path, since string) ([]budgets.Version, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return nil, errors.New("git is not on PATH: walks history reads the file's versions from git")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	if real, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		abs = filepath.Join(real, filepath.Base(abs))
	}
	dir := filepath.Dir(abs)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("%s: no such directory", filepath.Dir(path))
	}
	top, err := git(dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, fmt.Errorf("%s: not in a git work tree: walks history reads the file's versions from git", path)
	}
	top = strings.TrimSpace(top)
	rel, err := filepath.Rel(top, abs)
	if err != nil || strings.HasPrefix(rel, "..") {
		return nil, fmt.Errorf("%s: not inside the work tree %s", path, top)
	}
	rel = filepath.ToSlash(rel)
	if strings.HasPrefix(since, "-") {
		return nil, fmt.Errorf("--since %s: want a revision (a commit, tag or branch), not a flag", since)
	}
	var after map[string]bool // the commits of since..HEAD
	if since != "" {
		if _, err := git(top, "rev-parse", "--verify", "--quiet", since+"^{commit}"); err != nil {
			return nil, fmt.Errorf("--since %s: git knows no such revision here", since)
		}
		list, err := git(top, "rev-list", since+"..HEAD", "--")
		if err != nil {
			return nil, fmt.Errorf("--since %s: git rev-list: %v", since, err)
		}
		after = map[string]bool{}
		for _, h := range strings.Fields(list) {
			after[h] = true
		}
	}
	out, err := git(top, "log", "--follow", "--name-only", "--format=%x1e%H%x1f%h%x1f%cI%x1f%s", "--", rel)
	if err != nil {
		return nil, fmt.Errorf("%s: git log: %v", path, err)
	}
	var versions []budgets.Version
	for _, rec := range strings.Split(out, "\x1e") {
		if strings.TrimSpace(rec) == "" {
			continue
		}
		head, names, _ := strings.Cut(rec, "\n")
		v, err := parseLogHead(head)
		if err != nil {
			return nil, err
		}
		v.Path = rel
		for _, n := range strings.Split(names, "\n") {
			if n = strings.TrimSpace(n); n != "" {
				v.Path = n
			}
		}
		versions = append(versions, v)
	}
	// git log gives the newest first.
	for i, j := 0, len(versions)-1; i < j; i, j = i+1, j-1 {
		versions[i], versions[j] = versions[j], versions[i]
	}
	if after != nil {
		// Keep the version in force at since (the newest one not after
		// it), then those after it.
		first := len(versions)
		for i, v := range versions {
			if after[v.Commit] {
				first = i
				break
			}
		}
		versions = versions[max(first-1, 0):]
	}
	if len(versions) == 0 {
		if since != "" {
			return nil, fmt.Errorf("%s: git has no version of it since %s", path, since)
		}
		return nil, fmt.Errorf("%s: git has no commit of it: commit it first", path)
	}
	kept := versions[:0]
	for _, v := range versions {
		data, err := gitBytes(top, "show", v.Commit+":"+v.Path)
		if err != nil {
			continue // the commit deleted the file
		}
		v.Data = data
		kept = append(kept, v)
	}
	return kept, nil
}

func parseLogHead(head string) (budgets.Version, error) {
	f := strings.Split(head, "\x1f")
	if len(f) != 4 {
		return budgets.Version{}, fmt.Errorf("git log: unexpected line %q", head)
	}
	date, err := time.Parse(time.RFC3339, f[2])
	if err != nil {
		return budgets.Version{}, fmt.Errorf("git log: commit %s: date %q: %v", f[1], f[2], err)
	}
	return budgets.Version{Commit: f[0], Short: f[1], Date: date, Subject: f[3]}, nil
}

func git(dir string, args ...string) (string, error) {
	out, err := gitBytes(dir, args...)
	return string(out), err
}

func gitBytes(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return nil, errors.New(msg)
		}
		return nil, err
	}
	return out, nil
}
