package budgets

import (
	"fmt"
	"net/url"
	"strings"
)

// ServerMember is the mark of a budget file that says whose numbers it
// holds. In JSON it is the top-level member `"$server": "NAME"` (like every
// "$" member it holds no budget); in TypeScript, a top-level line comment
// `// $server: NAME`. specs/twin/budgets.json is marked "twin".
const ServerMember = "$server"

// TwinServer is the server name of the embedded twin: the server of a
// `walks run` without --url.
const TwinServer = "twin"

// Server returns the server the file's mark names ("twin",
// "api.example.org"), or "" when the file is not marked.
func (f *File) Server() string {
	return f.server
}

// TwinMark returns the mark of the twin's numbers as a file of format
// writes it: `"$server": "twin"` in JSON, `// $server: twin` in
// TypeScript.
func TwinMark(format Format) string {
	f := &File{Format: format, server: TwinServer}
	return f.mark()
}

// mark returns the file's mark as the file writes it.
func (f *File) mark() string {
	if f.Format == TypeScript {
		return "`// " + ServerMember + ": " + f.server + "`"
	}
	return fmt.Sprintf("`%q: %q`", ServerMember, f.server)
}

// RunServer returns the server a run's numbers come from, the one rule of
// every command: the name given (--server) when not "", else the host of
// base (--url) when not "", else TwinServer when the run is on the
// embedded twin, else "" (unknown: a tools/list capture read from a file).
func RunServer(named, base string, onTwin bool) string {
	switch {
	case named != "":
		return named
	case base != "":
		if u, err := url.Parse(base); err == nil && u.Hostname() != "" {
			return strings.ToLower(u.Hostname())
		}
		return base
	case onTwin:
		return TwinServer
	}
	return ""
}

// CheckServer returns an error when the numbers of a run from server would
// be written into f, a file marked as another server's: the mark and the
// server both known, and different. An unmarked file takes any numbers; a
// run whose server is unknown writes into any file. flags names the flags
// that say the run's server ("--server or --url"), for the message.
func CheckServer(f *File, server, flags string) error {
	if f.server == "" || server == "" || f.server == server {
		return nil
	}
	return fmt.Errorf("%s is marked %s, and this run's numbers come from %s; give --budgets a file of %s's (or an unmarked one), or say whose numbers they are with %s", f.Path, f.mark(), server, server, flags)
}
