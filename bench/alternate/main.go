// Command alternate times whole processes, taking turns: each round runs
// every command once, in the order given, so that a machine whose load
// changes during the run weighs on all of them alike. For each command it
// prints the wall time of its runs (median, mean, standard deviation,
// least, most) and its peak resident memory (the kernel's maximum
// resident set size of each run: median and most).
//
//	go run ./bench/alternate --runs 15 -- measure --json x.json ::: node measure.js x.json
//
// Commands are separated by ":::"; each is run directly (no shell), its
// output discarded. A command that fails fails the run.
//
// It prints one line a command:
//
//	median_ns mean_ns stddev_ns min_ns max_ns runs maxrss_median_kib maxrss_max_kib
//
// or, with --markdown, a table.
package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"
)

// main runs alternate; every error is a usage error or a command that
// failed, exit 2. It is a benchmark tool, not one of the toolkit's
// commands, so it keeps to the standard library's error printing rather
// than the commands' frame.
func main() {
	if err := run(os.Stdout, os.Stderr, os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "alternate:", err)
		os.Exit(2)
	}
}

func run(stdout, stderr io.Writer, args []string) error {
	fs := pflag.NewFlagSet("alternate", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	runs := fs.Int("runs", 15, "timed rounds")
	warmup := fs.Int("warmup", 3, "untimed rounds first")
	markdown := fs.Bool("markdown", false, "print a Markdown table")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: alternate [--runs N] [--warmup N] [--markdown] -- CMD [ARG...] [::: CMD [ARG...]]...\n\nExit codes: 0 timed, 2 usage error or a command failed.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return nil
		}
		return err
	}
	var cmds [][]string
	var cur []string
	for _, a := range fs.Args() {
		if a == ":::" {
			cmds = append(cmds, cur)
			cur = nil
			continue
		}
		cur = append(cur, a)
	}
	cmds = append(cmds, cur)
	if *runs < 1 || *warmup < 0 || slices.ContainsFunc(cmds, func(c []string) bool { return len(c) == 0 }) {
		fs.Usage()
		return errors.New("give at least one command, --runs 1 or more")
	}
	times := make([][]time.Duration, len(cmds))
	rss := make([][]int64, len(cmds))
	for r := range *warmup + *runs {
		for k, c := range cmds {
			d, kib, err := once(c)
			if err != nil {
				return fmt.Errorf("%s: %v", strings.Join(c, " "), err)
			}
			if r >= *warmup {
				times[k] = append(times[k], d)
				rss[k] = append(rss[k], kib)
			}
		}
	}
	if *markdown {
		fmt.Fprintln(stdout, "| command | median | mean ± sd | min | max | runs | peak RSS (median, max) |")
		fmt.Fprintln(stdout, "|---|---:|---:|---:|---:|---:|---:|")
	}
	for k, c := range cmds {
		med, mean, sd := stats(times[k])
		lo, hi := slices.Min(times[k]), slices.Max(times[k])
		r := slices.Clone(rss[k])
		slices.Sort(r)
		if *markdown {
			ms := func(d float64) string { return fmt.Sprintf("%.1f ms", d/1e6) }
			fmt.Fprintf(stdout, "| `%s` | %s | %s ± %.1f | %s | %s | %d | %.1f MiB, %.1f MiB |\n", strings.Join(c, " "),
				ms(med), ms(mean), sd/1e6, ms(float64(lo)), ms(float64(hi)), len(times[k]), float64(r[len(r)/2])/1024, float64(r[len(r)-1])/1024)
			continue
		}
		fmt.Fprintf(stdout, "%.0f %.0f %.0f %d %d %d %d %d\n", med, mean, sd, lo, hi, len(times[k]), r[len(r)/2], r[len(r)-1])
	}
	return nil
}

// once runs c and returns its wall time, from start to exit, and its
// peak resident memory in KiB.
func once(c []string) (time.Duration, int64, error) {
	cmd := exec.Command(c[0], c[1:]...)
	t := time.Now()
	if err := cmd.Run(); err != nil {
		return 0, 0, err
	}
	return time.Since(t), maxRSS(cmd.ProcessState), nil
}

// stats returns the median, mean and standard deviation of ds, in ns.
func stats(ds []time.Duration) (med, mean, sd float64) {
	s := slices.Clone(ds)
	slices.Sort(s)
	if n := len(s); n%2 == 1 {
		med = float64(s[n/2])
	} else {
		med = float64(s[n/2-1]+s[n/2]) / 2
	}
	for _, d := range s {
		mean += float64(d)
	}
	mean /= float64(len(s))
	for _, d := range s {
		sd += (float64(d) - mean) * (float64(d) - mean)
	}
	if len(s) > 1 {
		sd = math.Sqrt(sd / float64(len(s)-1))
	}
	return med, mean, sd
}
