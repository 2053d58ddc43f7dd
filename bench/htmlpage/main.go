// Command htmlpage loads a page that measure or walks wrote with --html in
// headless Chromium and prints how long it took to draw and its size;
// with -screenshot it also saves what the browser shows as a PNG.
//
//	htmlpage [-screenshot OUT.png] [-width 1200] [-height 900] [-runs 5] PAGE.html
//
// The time is the page's own "drawn" mark: from the start of the
// navigation to the end of its script's drawing (the HTML parsed, the
// data read, every element made and laid out once). Each run loads the
// page anew in the same browser; the median and the range are printed.
// The browser is browsertest.Binary's ($CHROMIUM, or Debian's
// chromium-headless-shell on PATH).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/readmeter/readmeter/internal/browsertest"
)

func main() {
	if err := run(os.Stdout, os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "htmlpage:", err)
		os.Exit(2)
	}
}

func run(stdout io.Writer, args []string) error {
	fs := flag.NewFlagSet("htmlpage", flag.ContinueOnError)
	shot := fs.String("screenshot", "", "save a PNG of the page's first screen to `FILE`")
	w := fs.Int("width", 1200, "the window's width in CSS pixels")
	h := fs.Int("height", 900, "the window's height in CSS pixels")
	runs := fs.Int("runs", 5, "how many times to load the page")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 || *runs < 1 {
		return errors.New("usage: htmlpage [-screenshot OUT.png] [-width W] [-height H] [-runs N] PAGE.html")
	}
	path, err := filepath.Abs(fs.Arg(0))
	if err != nil {
		return err
	}
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	bin := browsertest.Binary()
	if bin == "" {
		return errors.New("no Chromium found: install Debian's chromium-headless-shell, or set CHROMIUM")
	}
	dir, err := os.MkdirTemp("", "htmlpage")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	ctx, cancel := browsertest.Start(bin, *w, *h, dir)
	defer cancel()
	// the first action starts the browser, with no timeout: one would stop it
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		return fmt.Errorf("starting %s: %v", bin, err)
	}
	var times []float64
	for range *runs {
		lctx, stop := context.WithTimeout(ctx, time.Minute)
		err := chromedp.Do(lctx,
			chromedp.Navigate(browsertest.FileURL(path)),
			chromedp.WaitVisible(chromedp.CSS(`body[data-ready="true"]`)))
		stop()
		if err != nil {
			return fmt.Errorf("loading %s: %v", path, err)
		}
		ms, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`performance.getEntriesByName('drawn')[0].startTime`))
		if err != nil {
			return fmt.Errorf("%s: no drawn mark: %v", path, err)
		}
		times = append(times, ms)
	}
	slices.Sort(times)
	fmt.Fprintf(stdout, "%s: %d bytes, drawn in %.0f ms (median of %d; %.0f to %.0f)\n",
		fs.Arg(0), st.Size(), times[len(times)/2], len(times), times[0], times[len(times)-1])
	if *shot != "" {
		png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err != nil {
			return err
		}
		if err := os.WriteFile(*shot, png, 0o644); err != nil {
			return err
		}
	}
	return nil
}
