package mcpwire

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/readmeter/readmeter/internal/eventstream"
	"github.com/readmeter/readmeter/internal/procgroup"
)

// StdioOptions configure the stdio transport.
type StdioOptions struct {
	// Env holds KEY=VALUE pairs added to the current environment.
	Env []string
	// Dir is the working directory ("" for the current one).
	Dir string
	// Timeout bounds one request (DefaultTimeout when 0).
	Timeout time.Duration
	// StartTimeout, when more than 0, bounds the requests until the
	// server's first answer in place of Timeout: the time to start it is
	// part of that wait (npx -y PKG downloads the package on its first
	// run).
	StartTimeout time.Duration
	// MaxBody bounds one line's size in bytes (DefaultMaxBody when 0).
	MaxBody int64
}

// stderrKeep is how much of a server's stderr is kept.
const stderrKeep = 64 << 10

type stdioTransport struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan []byte   // stdout, a line each, without its line ending
	done   chan struct{} // closed when the process is reaped
	stderr *tailBuffer
	max    int64

	mu      sync.Mutex    // one exchange at a time
	quit    chan struct{} // closed when stopping: lines are dropped
	closing sync.Once
	closed  sync.Once
	unwatch func() bool // stops watching NewStdio's context

	state   sync.Mutex
	waitErr error // how the process ended, set before done is closed
	readErr error // why stdout ended, set before lines is closed
}

// NewStdio starts argv as an MCP server speaking newline-delimited JSON on
// its stdin and stdout. The process lives until Close (or until ctx is
// done); Close always reaps it.
func NewStdio(ctx context.Context, argv []string, o StdioOptions) (*Client, error) {
	where := commandLine(argv)
	if len(argv) == 0 {
		return nil, &Error{Where: "stdio", Err: errors.New("no command given"), msg: "stdio: no command given"}
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), o.Env...)
	cmd.Dir = o.Dir
	cmd.WaitDelay = 2 * time.Second
	setGroup(cmd)
	t := &stdioTransport{
		cmd:    cmd,
		lines:  make(chan []byte, 64),
		done:   make(chan struct{}),
		quit:   make(chan struct{}),
		stderr: &tailBuffer{max: stderrKeep},
		max:    o.MaxBody,
	}
	if t.max <= 0 {
		t.max = DefaultMaxBody
	}
	cmd.Stderr = t.stderr
	var err error
	if t.stdin, err = cmd.StdinPipe(); err != nil {
		return nil, &Error{Where: where, Err: err, msg: where + ": " + err.Error()}
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, &Error{Where: where, Err: err, msg: where + ": " + err.Error()}
	}
	if err := cmd.Start(); err != nil {
		return nil, &Error{Where: where, Err: err, msg: where + ": cannot start: " + startError(err)}
	}
	procgroup.Track(cmd.Process.Pid)
	go t.read(stdout)
	c := newClient(t, where, o.Timeout, nil)
	c.startTimeout = o.StartTimeout
	t.unwatch = context.AfterFunc(ctx, func() { t.stop() })
	return c, nil
}

func startError(err error) string {
	var ee *exec.Error
	if errors.As(err, &ee) {
		return ee.Err.Error()
	}
	return err.Error()
}

// read passes stdout's lines on, then reaps the process.
func (t *stdioTransport) read(stdout io.Reader) {
	br := bufio.NewReaderSize(stdout, 64<<10)
	var err error
	for {
		var b []byte
		b, err = readLine(br, t.max)
		if err != nil {
			break
		}
		select {
		case t.lines <- b:
		case <-t.quit:
		}
	}
	if err == io.EOF {
		err = nil
	}
	t.state.Lock()
	t.readErr = err
	t.state.Unlock()
	close(t.lines)
	if err != nil {
		// The server cannot be read any further: stop it.
		signalGroup(t.cmd, true)
	}
	werr := t.cmd.Wait()
	procgroup.Reap(t.cmd.Process.Pid) // children that outlived the server
	t.state.Lock()
	t.waitErr = werr
	t.state.Unlock()
	close(t.done)
}

// readLine reads one line without its "\n" or "\r\n" (the SDKs strip a
// CR before the LF: it is not part of the message); a last line without a
// line end counts.
func readLine(br *bufio.Reader, max int64) ([]byte, error) {
	var b []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if int64(len(b)+len(chunk)) > max+1 {
			return nil, &eventstream.TooLargeError{Max: max}
		}
		b = append(b, chunk...)
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			if err == io.EOF && len(b) > 0 {
				return b, nil
			}
			return nil, err
		}
		return bytes.TrimSuffix(b[:len(b)-1], []byte("\r")), nil
	}
}

func (t *stdioTransport) setVersion(string) {}

func (t *stdioTransport) send(ctx context.Context, m *outgoing) (*Response, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := t.write(m.body); err != nil {
		return nil, t.ended(err)
	}
	r := &Response{}
	if m.isNotification() {
		r.Stderr = t.stderr.Bytes()
		return r, nil
	}
	for {
		var l []byte
		var ok bool
		select {
		case l, ok = <-t.lines:
		case <-ctx.Done():
			return nil, fmt.Errorf("%w%s", context.Cause(ctx), t.stderrHint())
		}
		if !ok {
			return nil, t.ended(nil)
		}
		msg := bytes.TrimSpace(l)
		if len(msg) == 0 {
			continue
		}
		env, ok := readEnvelope(msg)
		if !ok {
			return nil, fmt.Errorf("wrote a line that is not JSON: %s%s", excerpt(msg), t.stderrHint())
		}
		if env.answers(m.id) {
			r.Raw, r.Message, r.Stderr, r.env = l, msg, t.stderr.Bytes(), env
			return r, nil
		}
		r.Events = append(r.Events, Event{Data: msg})
		t.answerServer(msg)
	}
}

// answerServer answers a request from the server so that it does not wait:
// ping with an empty result, anything else with "method not found".
func (t *stdioTransport) answerServer(msg []byte) {
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(msg, &req) != nil || req.Method == "" || len(req.ID) == 0 || string(req.ID) == "null" {
		return
	}
	var b []byte
	if req.Method == "ping" {
		b = fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"result":{}}`, req.ID)
	} else {
		b = fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"Method not found"}}`, req.ID)
	}
	t.write(b)
}

func (t *stdioTransport) write(body []byte) error {
	b := make([]byte, 0, len(body)+1)
	b = append(b, body...)
	b = append(b, '\n')
	_, err := t.stdin.Write(b)
	return err
}

// ended explains why no answer can come: the process exited, or closed
// its stdout, or wrote a line too long.
func (t *stdioTransport) ended(writeErr error) error {
	select {
	case <-t.done:
	case <-time.After(2 * time.Second):
	}
	t.state.Lock()
	readErr, waitErr := t.readErr, t.waitErr
	t.state.Unlock()
	var tl *eventstream.TooLargeError
	if errors.As(readErr, &tl) {
		return tl
	}
	select {
	case <-t.done:
		status := "exit status 0"
		if waitErr != nil {
			status = waitErr.Error()
		}
		return fmt.Errorf("the server exited (%s) before answering%s", status, t.stderrHint())
	default:
	}
	if writeErr != nil {
		return fmt.Errorf("cannot write to the server: %v%s", writeErr, t.stderrHint())
	}
	return fmt.Errorf("the server closed its stdout before answering%s", t.stderrHint())
}

// stderrTail is how much of the end of a server's stderr an error quotes:
// enough for the error above a runtime's last line ("Node.js v20...").
const stderrTail = 400

// stderrHint is "; stderr: LAST LINES" (escaped, at most stderrTail bytes
// from the start of a line) when the server wrote to stderr.
func (t *stdioTransport) stderrHint() string {
	b := bytes.TrimSpace(t.stderr.Bytes())
	if len(b) == 0 {
		return ""
	}
	cut := len(b) > stderrTail
	if cut {
		b = b[len(b)-stderrTail:]
		if i := bytes.IndexByte(b, '\n'); i >= 0 && i < len(b)-1 {
			b = b[i+1:]
		}
	}
	s := strconv.Quote(string(bytes.TrimSpace(b)))
	if cut {
		s = "..." + s
	}
	return "; stderr: " + s
}

// stop ends the process: stdin closed, then SIGTERM to its group, then
// SIGKILL; it returns once the process is reaped.
func (t *stdioTransport) stop() {
	t.closing.Do(func() {
		close(t.quit)
		t.stdin.Close()
		if waitDone(t.done, 300*time.Millisecond) {
			return
		}
		signalGroup(t.cmd, false)
		if waitDone(t.done, time.Second) {
			return
		}
		signalGroup(t.cmd, true)
	})
	<-t.done
}

func waitDone(done chan struct{}, d time.Duration) bool {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-done:
		return true
	case <-timer.C:
		return false
	}
}

func (t *stdioTransport) close() error {
	t.closed.Do(func() {
		if t.unwatch != nil {
			t.unwatch()
		}
		t.stop()
		// Whatever the group left behind goes too.
		signalGroup(t.cmd, true)
	})
	return nil
}

// Stderr returns what a stdio server wrote to stderr so far (its last
// 64 KiB); nil for other transports.
func (c *Client) Stderr() []byte {
	if t, ok := c.t.(*stdioTransport); ok {
		return t.stderr.Bytes()
	}
	return nil
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	b   []byte
	max int
}

func (w *tailBuffer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.b = append(w.b, p...)
	if len(w.b) > w.max {
		w.b = append(w.b[:0], w.b[len(w.b)-w.max:]...)
	}
	return len(p), nil
}

func (w *tailBuffer) Bytes() []byte {
	w.mu.Lock()
	defer w.mu.Unlock()
	return bytes.Clone(w.b)
}

// commandLine writes argv as a shell would read it back.
func commandLine(argv []string) string {
	var parts []string
	for _, a := range argv {
		parts = append(parts, shellQuote(a))
	}
	return strings.Join(parts, " ")
}

func shellQuote(s string) string {
	if s == "" {
		return "''"
	}
	safe := true
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_./:=@%+,-", r)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
