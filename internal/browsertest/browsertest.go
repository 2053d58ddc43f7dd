// Package browsertest opens HTML pages in a real headless Chromium for
// tests, through chromedp, and fails the test on any console error, any
// exception, any violation of the page's Content-Security-Policy and any
// request other than the page's own file.
//
//	p := browsertest.Open(t, "report.html")        // skips when no Chromium is installed (not in CI)
//	n := browsertest.Eval[int](t, p, "document.querySelectorAll('[data-tool]').length")
//	p.Check()                                      // no error logged, nothing requested
//
// The browser is Chromium's headless shell (Debian's
// chromium-headless-shell, which .ci/run installs), or the binary named
// by $CHROMIUM. Without one, a test skips with a message saying what to
// install, except under CI (CI set), where it fails.
package browsertest

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// Page is a page open in the browser.
type Page struct {
	t   testing.TB
	ctx context.Context
	url string

	mu       sync.Mutex
	errors   []string
	requests []string
}

// Binary returns the Chromium to drive: $CHROMIUM, else the first of the
// usual names found on PATH; "" when there is none.
func Binary() string {
	if b := os.Getenv("CHROMIUM"); b != "" {
		return b
	}
	for _, name := range []string{"chromium-headless-shell", "headless-shell", "chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// FileURL returns the file: URL of the absolute path abs
// (file:///tmp/a.html, file:///C:/a.html), its characters escaped as a
// URL path's.
func FileURL(abs string) string {
	p := filepath.ToSlash(abs)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// Start returns a chromedp context on a new headless Chromium (the binary
// bin, with a window of w by h CSS pixels and its profile in dir), and the
// func that stops it. The browser starts at the context's first Run.
func Start(bin string, w, h int, dir string, opts ...chromedp.ContextOption) (context.Context, context.CancelFunc) {
	aopts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(bin),
		chromedp.NoSandbox,
		chromedp.WindowSize(w, h),
		chromedp.UserDataDir(dir),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), aopts...)
	ctx, cancelCtx := chromedp.NewContext(actx, opts...)
	return ctx, func() { cancelCtx(); cancelAlloc() }
}

// Open starts a headless Chromium for the test (stopped at its end) and
// loads the HTML file at path, waiting until its script has drawn it
// (the body's data-ready attribute). The window is width by height CSS
// pixels; 0 takes 1200 by 900.
func Open(t testing.TB, path string, size ...int) *Page {
	t.Helper()
	bin := Binary()
	if bin == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("no Chromium found: install Debian's chromium-headless-shell (.ci/run does) or set CHROMIUM")
		}
		t.Skip("no Chromium found: install Debian's chromium-headless-shell, or set CHROMIUM to a Chromium binary, to run the browser tests")
	}
	w, h := 1200, 900
	if len(size) == 2 {
		w, h = size[0], size[1]
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	p := &Page{t: t, url: FileURL(abs)}
	ctx, cancel := Start(bin, w, h, t.TempDir(), chromedp.WithListener(p.listen))
	p.ctx = ctx
	t.Cleanup(cancel)
	// the first Run starts the browser; a timeout on it would stop the browser
	if _, err := chromedp.Call(ctx, log.Enable, cdp.Empty{}); err != nil {
		t.Fatalf("starting %s: %v", bin, err)
	}
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatalf("%s: enabling the network events: %v", bin, err)
	}
	lctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	if err := chromedp.Do(lctx,
		chromedp.Navigate(p.url),
		chromedp.WaitVisible(chromedp.CSS(`body[data-ready="true"]`)),
	); err != nil {
		t.Fatalf("loading %s in %s: %v (errors: %v)", path, bin, err, p.Errors())
	}
	return p
}

// listen records the console errors, exceptions, log errors and
// requests of the page; it runs on the loop that reads the browser's
// messages, so it only appends under the lock.
func (p *Page) listen(ev any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeWarning || ev.Type == runtime.ConsoleAPICalledTypeAssert {
			var args []string
			for _, a := range ev.Args {
				args = append(args, string(a.Value)+a.Description)
			}
			p.errors = append(p.errors, fmt.Sprintf("console.%s: %s", ev.Type, strings.Join(args, " ")))
		}
	case *runtime.EventExceptionThrown:
		p.errors = append(p.errors, "exception: "+ev.ExceptionDetails.Text+" "+describe(ev.ExceptionDetails.Exception))
	case *log.EventEntryAdded:
		if ev.Entry.Level == log.EntryLevelError || ev.Entry.Level == log.EntryLevelWarning {
			p.errors = append(p.errors, fmt.Sprintf("log %s: %s", ev.Entry.Source, ev.Entry.Text))
		}
	case *network.EventRequestWillBeSent:
		if ev.Request.URL != p.url {
			p.requests = append(p.requests, ev.Request.URL)
		}
	}
}

func describe(o *runtime.RemoteObject) string {
	if o == nil {
		return ""
	}
	return o.Description
}

// Run runs chromedp actions on the page, failing the test on an error.
func (p *Page) Run(actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, actions...); err != nil {
		p.t.Fatalf("%s: %v", p.url, err)
	}
}

// Eval returns the value of the JavaScript expression expr on p.
func Eval[T any](p *Page, expr string) T {
	p.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		p.t.Fatalf("%s: evaluating %s: %v", p.url, expr, err)
	}
	return v
}

// Errors returns the console errors, exceptions and policy violations
// logged so far.
func (p *Page) Errors() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.errors...)
}

// Requests returns the URLs requested so far besides the page itself.
func (p *Page) Requests() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.requests...)
}

// Check fails the test when the page logged an error or requested
// anything but itself.
func (p *Page) Check() {
	p.t.Helper()
	// let the events of the last action arrive
	p.Run(chromedp.Sleep(50 * time.Millisecond))
	if e := p.Errors(); len(e) > 0 {
		p.t.Errorf("%s logged errors:\n%s", p.url, strings.Join(e, "\n"))
	}
	if r := p.Requests(); len(r) > 0 {
		p.t.Errorf("%s made requests: %s", p.url, strings.Join(r, ", "))
	}
}

// CheckInert fails the test unless the page holds only the elements a
// readmeter page makes: its two scripts (the data and the program) and
// its one style, no image, link, frame, object or <b> (a text's markup
// drawn as elements), no attribute named on... (a handler) or x (the
// hostile texts' attribute), nothing run (window.pwned unset), and a
// Content-Security-Policy that forbids by default.
func (p *Page) CheckInert() {
	p.t.Helper()
	if n := Eval[int](p, `document.scripts.length`); n != 2 {
		p.t.Errorf("%d scripts, want 2", n)
	}
	if n := Eval[int](p, `document.querySelectorAll('style').length`); n != 1 {
		p.t.Errorf("%d style elements, want the page's one", n)
	}
	if n := Eval[int](p, `document.querySelectorAll('img, b, iframe, a, object, embed, link, form').length`); n != 0 {
		p.t.Errorf("%d elements of the texts' kinds (img, b, a...), want none", n)
	}
	if a := Eval[[]string](p, `Array.from(document.querySelectorAll('*')).flatMap(function (e) { return Array.from(e.attributes).map(function (a) { return a.name; }); }).filter(function (n) { return /^on|^x$/.test(n); })`); len(a) > 0 {
		p.t.Errorf("attributes of the texts on elements: %v", a)
	}
	if v := Eval[any](p, `window.pwned === undefined ? null : window.pwned`); v != nil {
		p.t.Errorf("a text ran as script: window.pwned = %v", v)
	}
	if c := Eval[string](p, `(document.querySelector('meta[http-equiv="Content-Security-Policy"]') || {content: ''}).content`); !strings.Contains(c, "default-src 'none'") {
		p.t.Errorf("policy %q does not forbid by default", c)
	}
}
