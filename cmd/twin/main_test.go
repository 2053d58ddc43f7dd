package main

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/readmeter/readmeter/internal/cli"
	"github.com/readmeter/readmeter/internal/scripttest"
)

var update = flag.Bool("u", false, "rewrite the golden output in testdata/script/*.txtar")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"twin": main, // the built command exactly: main, as the binary runs it
	})
}

// TestScripts runs the golden scripts: help and bad input, with the exits
// command to check exit codes.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/script",
		UpdateScripts: *update,
		Cmds:          map[string]func(ts *testscript.TestScript, neg bool, args []string){"exits": scripttest.Exits},
	})
}

// TestServes runs twin in-process: it prints its URL, serves the API and
// the documents there, and returns nil when interrupted.
func TestServes(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	interrupted = func() (context.Context, context.CancelFunc) { return ctx, cancel }
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(pw, io.Discard, []string{"--addr", "127.0.0.1:0", "--api-host", "api.example"})
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the URL: %v", err)
	}
	go io.Copy(io.Discard, pr)
	base := strings.TrimSuffix(line, "\n")
	if !strings.HasPrefix(base, "http://127.0.0.1:") {
		t.Fatalf("printed %q, want http://127.0.0.1:PORT", line)
	}
	resp, err := http.Get(base + "/reference?section=start-tasks")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(string(b), "## Start: tasks\n") {
		t.Errorf("start-tasks: %d %q", resp.StatusCode, b)
	}
	resp, err = http.Post(base+"/v1/keys/challenge", "application/json", strings.NewReader(`{"public_key":"`+strings.Repeat("ab", 32)+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(b), `"audience":"api.example"`) {
		t.Errorf("challenge with --api-host: %d %s", resp.StatusCode, b)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("run after the interrupt: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("twin did not stop on the interrupt")
	}
}

// serve runs twin in-process with args until the test ends, and returns
// the base URL it prints.
func serve(t *testing.T, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	old := interrupted
	interrupted = func() (context.Context, context.CancelFunc) { return ctx, cancel }
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(pw, io.Discard, args)
		pw.Close()
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("twin %s: %v", strings.Join(args, " "), err)
		}
		interrupted = old
	})
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the URL: %v", err)
	}
	go io.Copy(io.Discard, pr)
	return strings.TrimSuffix(line, "\n")
}

// TestListens: loopback, by address or by name, is served; every
// interface is served with --public, and reached on loopback.
func TestListens(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		hosts []string // the host of the URL printed, one of
	}{
		{[]string{"--addr", "localhost:0"}, []string{"127.0.0.1"}},
		{[]string{"--addr", "[::1]:0"}, []string{"::1"}},
		{[]string{"--addr", "0.0.0.0:0", "--public"}, []string{"0.0.0.0", "::"}},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			if tc.hosts[0] == "::1" {
				ln, err := net.Listen("tcp", "[::1]:0")
				if err != nil {
					t.Skip("no IPv6 loopback here")
				}
				ln.Close()
			}
			base := serve(t, tc.args...)
			u, err := url.Parse(base)
			if err != nil || u.Scheme != "http" || !slices.Contains(tc.hosts, u.Hostname()) {
				t.Fatalf("printed %q, want http://HOST:PORT with HOST one of %v", base, tc.hosts)
			}
			host := u.Hostname()
			if !net.ParseIP(host).IsLoopback() {
				host = "127.0.0.1"
			}
			resp, err := http.Get("http://" + net.JoinHostPort(host, u.Port()) + "/v1/categories")
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != 200 {
				t.Errorf("status %d", resp.StatusCode)
			}
		})
	}
}

// TestLogPanic: a panic is told on stderr, one line and its stack.
func TestLogPanic(t *testing.T) {
	var buf bytes.Buffer
	logPanic(&buf)("GET /v1/me", "index out of range [3] with length 3", []byte("goroutine 7 [running]:\nmain.f()\n"))
	want := "twin: panic answering GET /v1/me: index out of range [3] with length 3\ngoroutine 7 [running]:\nmain.f()\n"
	if buf.String() != want {
		t.Errorf("got %q, want %q", buf.String(), want)
	}
}

// TestExitCodes: bad input is exit 2; --help is 0.
func TestExitCodes(t *testing.T) {
	for _, c := range []struct {
		args []string
		want int
	}{
		{[]string{"--help"}, 0},
		{[]string{"--port", "80"}, 2},
		{[]string{"serve"}, 2},
		{[]string{"--addr", "nowhere"}, 2},
		{[]string{"--addr", "0.0.0.0:0"}, 2},
		{[]string{"--addr", ":0"}, 2},
	} {
		if got := cli.Code(run(io.Discard, io.Discard, c.args)); got != c.want {
			t.Errorf("twin %s: exit %d, want %d", strings.Join(c.args, " "), got, c.want)
		}
	}
}
