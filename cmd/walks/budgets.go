package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/pflag"

	"github.com/readmeter/readmeter/budgets"
	"github.com/readmeter/readmeter/internal/cli"
)

func budgetsCmd(stdout, stderr io.Writer, args []string) error {
	if len(args) > 0 && (args[0] == "-h" || args[0] == "--help") {
		args = []string{"render", "--help"} // budgets has one subcommand: its help
	}
	if len(args) == 0 || args[0] != "render" {
		return cli.Usage("budgets: want render (walks budgets render --budgets FILE --template FILE)")
	}
	fs := pflag.NewFlagSet("walks budgets render", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	file := fs.String("budgets", "", "the budget `FILE` (JSON or TypeScript)")
	tmpl := fs.String("template", "", "the template `FILE`: text with a placeholder for each budget")
	if err := fs.Parse(args[1:]); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			fmt.Fprint(stdout, "usage: walks budgets render --budgets FILE --template FILE\n\nWrites the template with each budget placeholder replaced by its value:\n{{FIRST_TASK_TOKENS.plugin}} in en-US grouping (23,324),\n{{FIRST_TASK_TOKENS.plugin | raw}} in digits only (23324).\n\nExit codes:\n  0  written\n  2  a usage error, a bad budget file, or a placeholder the file lacks (file and line named)\n\nFlags:\n"+fs.FlagUsages())
			return nil
		}
		return cli.Usage("budgets render: %v", err)
	}
	if *file == "" || *tmpl == "" {
		return cli.Usage("budgets render: want --budgets FILE and --template FILE")
	}
	bf, err := budgets.Load(*file)
	if err != nil {
		return err
	}
	t, err := os.ReadFile(*tmpl)
	if err != nil {
		return cli.Usage("budgets render: %v", err)
	}
	out, err := budgets.RenderFile(*tmpl, t, bf)
	if err != nil {
		return err
	}
	_, err = stdout.Write(out)
	return err
}
