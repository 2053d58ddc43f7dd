// Package walk reads walk specs and replays them against a running server,
// counting every byte the server answers into a ledger.
//
//	s, err := walk.Load("specs/schellingaf/start_tasks.yaml")
//	res, err := walk.Run(ctx, s, walk.Options{BaseURL: base})
//	fmt.Println(res.Ledger.Tokens(), res.Calls) // what the walk read, and in how many calls
//	checks, err := res.Checks(file)              // file: a *budgets.File; checks.Err() gates
//
// A walk is what an agent does on its first task: a list of requests, each
// answered, each answer read. The service's builders hold every walk to a
// budget of tokens; this package replays the walks from spec files so the
// same numbers can be measured against any running server.
//
// The steps:
//
//  1. Load parses a spec file (YAML, one walk per file) into a Spec. Every
//     error names the file and line: an unknown key, a step with no kind or
//     two, a bad regular expression, an include that cannot be read. A
//     step's kind is a type behind the Action interface (*HTTPRequest,
//     *MCPRequest, *DocSource, *ExecCommand, *KeyStep, *PKCEStep,
//     *Together, and *Loop for a use step with a repeat) that parses its
//     own keys and runs; nothing dispatches on a kind's name.
//  2. (*Spec).Check finds every {{name}} that nothing defines before any
//     request is sent: variables, --var values, the environment, values kept
//     by earlier steps. (*Spec).CheckBudgets holds each {{budget.KEY}} to
//     a budget file (Options.Budget reads it when the walk runs).
//  3. Run sends the set-up steps (never counted), then the counted steps,
//     each answer added to its part of the ledger after normalisation;
//     asserts are checked and values kept as the spec says. A failure
//     against the server is a *Failure naming the step, the spec line, the
//     request and the actual answer, with every token redacted.
//
// A walk reads a server other walks may use too. Options.StartServer gives
// each run a server of its own (the walks command starts a fresh twin per
// walk), so what it counts cannot depend on what else ran; against one
// server, a spec that reads lists other walks write says so with
// `isolation: shared` (Spec.Isolation).
//
// The package never prints: the walks command turns results and errors into
// tables, reports and exit codes.
package walk
