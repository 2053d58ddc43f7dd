package main

import (
	"io"

	"github.com/readmeter/readmeter/budgets"
	"github.com/readmeter/readmeter/internal/cli"
	"github.com/readmeter/readmeter/internal/infile"
)

func budgetsCmd(stdout, stderr io.Writer, args []string) error {
	if len(args) > 0 && (args[0] == "-h" || args[0] == "--help") {
		args = []string{"render", "--help"} // budgets has one subcommand: its help
	}
	if len(args) == 0 || args[0] != "render" {
		return cli.Usage("budgets: want render (walks budgets render --budgets FILE --template FILE)")
	}
	c := cli.NewCommand("walks budgets render", "walks budgets render --budgets FILE --template FILE")
	c.Doc = "Writes the template with each budget placeholder replaced by its value:\n{{FIRST_TASK_TOKENS.plugin}} in en-US grouping (23,324),\n{{FIRST_TASK_TOKENS.plugin | raw}} in digits only (23324).\n"
	var file, tmpl string
	c.Budgets(&file)
	c.Flags.StringVar(&tmpl, "template", "", "the template `FILE`: text with a placeholder for each budget")
	if help, err := c.Parse(stdout, args[1:]); help || err != nil {
		return err
	}
	if file == "" || tmpl == "" || c.Flags.NArg() > 0 {
		return c.Usagef("want --budgets FILE and --template FILE")
	}
	bf, err := budgets.Load(file)
	if err != nil {
		return err
	}
	t, err := infile.Read(tmpl, "template", infile.MaxText)
	if err != nil {
		return c.Errorf("%v", err)
	}
	out, err := budgets.RenderFile(tmpl, t, bf)
	if err != nil {
		return err
	}
	_, err = stdout.Write(out)
	return err
}
