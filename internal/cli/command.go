package cli

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/readmeter/readmeter/internal/ghactions"
)

// Exits is the one table of exit codes: what each code means, in the
// words every command's help prints. A command's help lists the codes it
// can end with (Command.Exits), each with this text.
var Exits = []struct {
	Code int
	Text string
}{
	{ExitOK, "success (for a gate: every budget and ceiling held)"},
	{ExitFinding, "a finding, not a crash: a budget or ceiling exceeded, growth past\n       --max-growth, a change at --fail-on's level, a snapshot that differs,\n       repeated runs that counted differently, or with --strict a warning\n       (each named on stderr)"},
	{ExitUsage, "usage or input error: a bad flag, or a capture, spec, budget or\n       report file that cannot be used (one line names the file and line,\n       and what to do); nothing is written"},
	{ExitWalk, "a server failed: a walk's status, assert or transport, or a server\n       that could not be started, reached or measured (the request and the\n       answer are named)"},
	{130, "stopped by SIGINT (143: by SIGTERM); what it started was stopped\n       too, and nothing was written half-way"},
}

// Command is one command or subcommand as people type it: its name, its
// usage lines, what it does, the exit codes it can end with, and its
// flags. The shared flags (JSON, Markdown, JUnit, GitHub, Budgets, Update,
// Strict) are defined by its methods, each with its one help text;
// --help and --version are every command's.
//
//	c := cli.NewCommand("walks run", "walks run SPEC...|DIR [--url BASE] [flags]")
//	c.Doc = "Runs each walk ..."
//	c.Exits = []int{0, 1, 2, 3, 130}
//	c.JSON(&o.json)
//	url := c.Flags.String("url", "", "the server's `BASE` URL")
//	if help, err := c.Parse(stdout, args); help || err != nil {
//		return err
//	}
type Command struct {
	// Name is the command as typed: "measure", "walks run".
	Name string
	// Usage holds the usage lines, without "usage: ".
	Usage []string
	// Doc is the prose between the usage lines and the flags.
	Doc string
	// Exits are the exit codes the command can end with, from Exits.
	Exits []int
	// Flags are the command's flags; the shared ones are added by the
	// command's methods, --help and --version by NewCommand.
	Flags *pflag.FlagSet

	help bool
}

// NewCommand returns the command named name with its usage lines; --help
// (-h) and --version are defined when it parses, last in its flags.
func NewCommand(name string, usage ...string) *Command {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SortFlags = false
	c := &Command{Name: name, Usage: usage, Flags: fs, Exits: []int{ExitOK, ExitUsage}}
	return c
}

// The shared flags' help texts: one text per flag, whichever command has it.
const (
	jsonHelp           = "print the report as JSON on stdout, with exact integers, instead of the tables"
	markdownHelp       = "print the tables as Markdown, for a pull-request comment or a CI step summary"
	junitHelp          = "also write a JUnit XML report to `FILE`: a test case per budget, failed when exceeded, skipped when no budget holds it"
	githubHelp         = "speak to a GitHub Actions job: an annotation at the line at fault (a budget exceeded, at its line in the budget file), and the tables appended to $GITHUB_STEP_SUMMARY (default: on when GITHUB_ACTIONS=true; --github=false turns it off)"
	budgetsHelp        = "hold what is read to the budgets in `FILE` (JSON, or TypeScript export const blocks)"
	updateHelp         = "write what was read into what the run is held to: the --budgets FILE (only digits change; missing keys, blocks or the file itself are added), or measure snap's snapshot"
	updateExistingHelp = "; --update=existing moves only the numbers the file has and adds no key, block or file"
	serverHelp         = "the server `NAME` whose numbers these are (default: twin for the embedded twin, the --url's host for walks run): --update refuses a budget file marked as another server's ($server), and marks a file it creates with it"
	strictHelp         = "make a warning a finding (exit 1): a budget the file lacks, a budget nothing read, a client limit passed"
	versionHelp        = "print the version (module version and VCS revision) and exit"
	helpHelp           = "print this help"
)

// JSON defines --json.
func (c *Command) JSON(p *bool) { c.Flags.BoolVar(p, "json", false, jsonHelp) }

// Markdown defines --markdown.
func (c *Command) Markdown(p *bool) { c.Flags.BoolVar(p, "markdown", false, markdownHelp) }

// JUnit defines --junit FILE.
func (c *Command) JUnit(p *string) { c.Flags.StringVar(p, "junit", "", junitHelp) }

// GitHub defines --github, on by default in a GitHub Actions job.
func (c *Command) GitHub(p *bool) {
	c.Flags.BoolVar(p, "github", ghactions.InJob(), githubHelp)
	c.Flags.Lookup("github").DefValue = "false" // the default differs by environment; the help names it
}

// Budgets defines --budgets FILE.
func (c *Command) Budgets(p *string) { c.Flags.StringVar(p, "budgets", "", budgetsHelp) }

// Update defines --update, which rewrites what the run is held to.
func (c *Command) Update(p *bool) { c.Flags.BoolVar(p, "update", false, updateHelp) }

// UpdateExisting defines --update as Update does, and --update=existing,
// which sets existing too: move the numbers the --budgets file has and add
// no key, block or file.
func (c *Command) UpdateExisting(p, existing *bool) {
	f := c.Flags.VarPF(&updateValue{p, existing}, "update", "", updateHelp+updateExistingHelp)
	f.NoOptDefVal = "true"
}

// updateValue is --update's value: a bool, or "existing".
type updateValue struct{ on, existing *bool }

func (v *updateValue) String() string {
	switch {
	case v.on == nil || !*v.on:
		return "false"
	case *v.existing:
		return "existing"
	}
	return "true"
}

func (v *updateValue) Set(s string) error {
	if s == "existing" {
		*v.on, *v.existing = true, true
		return nil
	}
	b, err := strconv.ParseBool(s)
	if err != nil {
		return errors.New("write --update, or --update=existing to move only the numbers the file has")
	}
	*v.on, *v.existing = b, false
	return nil
}

func (v *updateValue) Type() string { return "bool" }

// Server defines --server NAME, the server whose numbers a run reads.
func (c *Command) Server(p *string) { c.Flags.StringVar(p, "server", "", serverHelp) }

// Strict defines --strict.
func (c *Command) Strict(p *bool) { c.Flags.BoolVar(p, "strict", false, strictHelp) }

// Parse parses args. It returns help true, having printed the help to
// stdout, when --help was asked for; a bad flag is a usage error naming
// the command and its --help. --version is answered by Main before Parse.
func (c *Command) Parse(stdout io.Writer, args []string) (help bool, err error) {
	c.common()
	if err := c.Flags.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			c.help = true
		} else {
			return false, c.Usagef("%v", err)
		}
	}
	if c.help {
		io.WriteString(stdout, c.Help())
		return true, nil
	}
	return false, nil
}

// Help returns the command's help: its usage lines, its prose, its flags
// as pflag lists them, and its exit codes from the one table.
func (c *Command) Help() string {
	c.common()
	var b strings.Builder
	for i, u := range c.Usage {
		if i == 0 {
			b.WriteString("usage: ")
		} else {
			b.WriteString("       ")
		}
		b.WriteString(u + "\n")
	}
	if c.Doc != "" {
		b.WriteString("\n" + strings.TrimRight(c.Doc, "\n") + "\n")
	}
	b.WriteString("\nFlags:\n" + c.Flags.FlagUsages())
	b.WriteString("\nExit codes:\n")
	for _, e := range Exits {
		if slices.Contains(c.Exits, e.Code) {
			code := strconv.Itoa(e.Code)
			b.WriteString("  " + code + strings.Repeat(" ", max(1, 5-len(code))) + e.Text + "\n")
		}
	}
	return b.String()
}

// common defines --version and --help, last in the flags' list, once.
func (c *Command) common() {
	if c.Flags.Lookup("help") == nil {
		c.Flags.Bool("version", false, versionHelp) // Main answers it before any parsing
		c.Flags.BoolVarP(&c.help, "help", "h", false, helpHelp)
	}
}

// Usagef returns a usage error (exit 2) in the one style: the message,
// then where to read more ("(see walks run --help)"). Main prefixes the
// command's name.
func (c *Command) Usagef(format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	return Usage("%s%s (see %s --help)", c.sub(), msg, c.Name)
}

// Errorf returns a usage or input error (exit 2) prefixed with the
// subcommand's name, as Main prints every error: "walks: run: ...".
func (c *Command) Errorf(format string, args ...any) error {
	return Usage("%s%s", c.sub(), fmt.Sprintf(format, args...))
}

// sub is the subcommand's name and ": ", or "" for a command's own run.
func (c *Command) sub() string {
	if _, rest, ok := strings.Cut(c.Name, " "); ok {
		return rest + ": "
	}
	return ""
}
