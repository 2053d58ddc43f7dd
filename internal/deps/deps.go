// Package deps pins the modules the toolkit uses while its packages are
// written; it is removed once every dependency is imported for real.
package deps

import (
	_ "github.com/google/go-cmp/cmp"
	_ "github.com/modelcontextprotocol/go-sdk/mcp"
	_ "github.com/olekukonko/tablewriter"
	_ "github.com/rogpeppe/go-internal/testscript"
	_ "github.com/schollz/progressbar/v3"
	_ "github.com/spf13/pflag"
	_ "github.com/tidwall/gjson"
	_ "go.yaml.in/yaml/v3"
	_ "golang.org/x/term"
)
