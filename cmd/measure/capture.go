package main

import (
	"io"

	"readmeter/internal/cli"
)

// runCapture takes a tool list live. It is written with the mcpwire package.
func runCapture(stdout, stderr io.Writer, args []string) error {
	return cli.Usage("capture: not built yet")
}
