package budgets

import "fmt"

// ServerMember is the top-level member of a JSON budget file that says whose
// numbers the file holds: `"$server": "twin"` marks the embedded twin's
// budgets (specs/twin/budgets.json), which a run on the twin may rewrite.
// Like every "$" member it holds no budget.
const ServerMember = "$server"

// TwinServer is the value of ServerMember in a budget file of the twin's.
const TwinServer = "twin"

// Server returns what the file's ServerMember says ("twin"), or "" when
// it has none: a TypeScript file, or a JSON file without the member, is
// a service's own.
func (f *File) Server() string {
	return f.server
}

// GuardTwin returns an error when numbers read from the embedded twin
// would be written into f, a budget file that does not say it is the
// twin's: the twin's numbers in a service's file would pass the service's
// own test no longer. how names the command and flags in the message
// ("walks run: --update without --url").
func GuardTwin(f *File, how string) error {
	if f.Server() == TwinServer {
		return nil
	}
	return fmt.Errorf("%s would write the embedded twin's numbers into %s, which is not the twin's; give the service's --url, or mark a twin budget file with %q: %q", how, f.Path, ServerMember, TwinServer)
}
