package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"github.com/readmeter/readmeter/internal/atomicfile"
	"github.com/readmeter/readmeter/internal/procgroup"
)

var (
	ctxMu  sync.Mutex
	runCtx = context.Background()
)

// Context returns the context a command's run works under: done when
// MainStoppable receives SIGINT or SIGTERM (context.Background when the
// run is called otherwise, as tests do).
func Context() context.Context {
	ctxMu.Lock()
	defer ctxMu.Unlock()
	return runCtx
}

// MainStoppable is Main for a command that starts processes or writes
// files: --version answers as Main's does; on SIGINT or SIGTERM it cancels Context, writes nothing more
// (atomicfile.Freeze), stops every process group it started (SIGTERM, then
// SIGKILL after procgroup.Grace; a second signal kills at once), removes
// its temporary files, and exits 130 (SIGINT) or 143 (SIGTERM). When run
// returns, what outlived it is ended the same way (see cleanUp), and a
// signal meanwhile still ends it all, at once, with 130 or 143. On Linux
// it is a child subreaper (procgroup.Subreap), and on a signal or when run
// returns it ends every process descended from it, even one that left its
// group; elsewhere, the process groups only.
func MainStoppable(name string, run func(stdout, stderr io.Writer, args []string) error) int {
	if AsksVersion(os.Args[1:]) {
		return version(name)
	}
	procgroup.Subreap()
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	ctxMu.Lock()
	runCtx = ctx
	ctxMu.Unlock()
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	done := make(chan error, 1)
	stdout, stderr := &stream{f: os.Stdout, name: "standard output"}, &stream{f: os.Stderr, name: "standard error"}
	go func() { done <- run(stdout, stderr, os.Args[1:]) }()
	select {
	case err := <-done:
		code := finish(stdout, stderr, name, err)
		return cleanUp(name, code, sigs)
	case sig := <-sigs:
		return stopped(name, sig.(syscall.Signal), cancel, sigs)
	}
}

// cleanUp ends what outlived a run that returned with code (a setsid
// child of an exec step, a stdio server's daemon), with procgroup.Grace,
// and returns code. Signals are still handled until the last of them has
// ended: SIGINT or SIGTERM meanwhile cuts the grace short (SIGKILL now),
// and the command ends with 130 or 143 and its one line.
func cleanUp(name string, code int, sigs chan os.Signal) int {
	defer signal.Stop(sigs)
	ended := make(chan struct{})
	go func() {
		procgroup.StopAll(procgroup.Grace)
		close(ended)
	}()
	select {
	case <-ended:
		return code
	case s := <-sigs:
		sig := s.(syscall.Signal)
		atomicfile.Freeze()
		procgroup.StopAll(1) // no more patience, as for a second signal
		atomicfile.RemoveTemps()
		fmt.Fprintf(os.Stderr, "%s: stopped by %s\n", name, sigName(sig))
		return 128 + int(sig)
	}
}

// stopped ends the run on sig; the exit code is 128 + the signal's number.
func stopped(name string, sig syscall.Signal, cancel context.CancelCauseFunc, sigs chan os.Signal) int {
	code := 128 + int(sig)
	atomicfile.Freeze()
	cancel(fmt.Errorf("stopped by %s", sigName(sig)))
	go func() {
		<-sigs // a second signal: no more patience
		procgroup.StopAll(1)
		atomicfile.RemoveTemps()
		os.Exit(code)
	}()
	procgroup.StopAll(procgroup.Grace)
	atomicfile.RemoveTemps()
	fmt.Fprintf(os.Stderr, "%s: stopped by %s\n", name, sigName(sig))
	return code
}

func sigName(s syscall.Signal) string {
	switch s {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return s.String()
}
