// Package nodeoracle runs Node on the same bytes a test gives Go, so tests
// can compare the toolkit's counts with what Node itself computes.
//
//	rs := nodeoracle.Eval(t, []byte(`{"b":1,"a":"<\u2028>"}`)) // rs[0].Stringified: JSON.stringify(JSON.parse(text))
//	got := nodeoracle.Measure(t, "captures/twin/tools-mcp.json") // measure.js's report, to compare with measure --json
//
// The stance: Node is the definition of the numbers the toolkit reports
// (JSON.parse, JSON.stringify, Buffer.byteLength, String.prototype.length),
// so the tests ask Node rather than a table of expected strings. Node must
// be installed: every function here fails the test, never skips it, when
// node cannot be run.
//
// The steps:
//
//  1. The first call starts one node process for the whole test binary
//     (server.js, embedded). It reads length-prefixed frames on stdin and
//     answers each with a frame on stdout, so a thousand inputs cost one
//     process start, not a thousand.
//  2. Eval sends a batch of inputs and returns, for each, what Node made of
//     it: the decoded text, JSON.stringify(JSON.parse(text)) or the error
//     JSON.parse threw, and the length and byte length of every string.
//  3. Measure runs measure.js, the reference for the figures of
//     `measure --json`, on a capture file.
//
// Set NODE to the node binary to use another than the one on PATH.
package nodeoracle

import (
	"bufio"
	"bytes"
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"testing"
)

//go:embed server.js
var serverJS string

// Status says how far Node got with an input.
type Status uint8

// What Node did with an input.
const (
	// Parsed means JSON.parse and JSON.stringify both succeeded.
	Parsed Status = 0
	// ParseThrew means JSON.parse threw: Node refuses the text.
	ParseThrew Status = 1
	// StringifyThrew means JSON.parse succeeded and JSON.stringify threw
	// (in practice: nesting deeper than Node's stack).
	StringifyThrew Status = 2
)

// String names the status.
func (s Status) String() string {
	switch s {
	case Parsed:
		return "parsed"
	case ParseThrew:
		return "JSON.parse threw"
	case StringifyThrew:
		return "JSON.stringify threw"
	}
	return fmt.Sprintf("Status(%d)", uint8(s))
}

// StrLen is what Node reports for one JavaScript string: s.length (UTF-16
// code units) and Buffer.byteLength(s, "utf8").
type StrLen struct {
	Len16   int
	ByteLen int
}

// Result is what Node made of one input.
type Result struct {
	// Status says whether JSON.parse and JSON.stringify succeeded.
	Status Status
	// Decoded is Buffer.from(input.toString("utf8")): the input as Node's
	// UTF-8 decoder reads it, written back as UTF-8.
	Decoded []byte
	// Stringified is JSON.stringify(JSON.parse(text)) as UTF-8 bytes; nil
	// unless Status is Parsed.
	Stringified []byte
	// Err is the message Node threw; empty when Status is Parsed.
	Err string
	// Strings holds every key and string value of the parsed value, depth
	// first in property order (a key, then its value), as Node measures
	// them; nil unless Status is Parsed.
	Strings []StrLen
}

type proc struct {
	mu     sync.Mutex
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
	stderr *lockedWriter
	broken error
}

var (
	startOnce sync.Once
	shared    *proc
	startErr  error
)

// NodePath returns the node binary the oracle runs: $NODE, or node on PATH.
// It returns an error that says what to install when there is none.
func NodePath() (string, error) {
	name := os.Getenv("NODE")
	if name == "" {
		name = "node"
	}
	p, err := exec.LookPath(name)
	if err != nil {
		return "", fmt.Errorf("nodeoracle: Node is required for this test and %q cannot be run (%v): install Node 20 (apt-get install nodejs) or set NODE", name, err)
	}
	return p, nil
}

func start() (*proc, error) {
	node, err := NodePath()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(node, "-e", serverJS)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	p := &proc{cmd: cmd, stdin: stdin, stdout: bufio.NewReaderSize(stdout, 1<<16), stderr: &lockedWriter{w: new(bytes.Buffer)}}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("nodeoracle: starting node: %v", err)
	}
	// The process ends when the test binary exits and stdin closes.
	return p, nil
}

type lockedWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.w.Len() < 1<<16 {
		l.w.Write(b)
	}
	return len(b), nil
}

func (l *lockedWriter) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.String()
}

// Eval asks Node what it makes of each input and returns the results in
// the same order. It fails the test when Node cannot be run.
func Eval(t testing.TB, inputs ...[]byte) []Result {
	t.Helper()
	res, err := eval(inputs)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func eval(inputs [][]byte) ([]Result, error) {
	startOnce.Do(func() { shared, startErr = start() })
	if startErr != nil {
		return nil, startErr
	}
	p := shared
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.broken != nil {
		return nil, p.broken
	}
	res, err := p.roundTrip(inputs)
	if err != nil {
		p.broken = fmt.Errorf("nodeoracle: node stopped answering: %v; node's stderr: %q", err, p.stderr.String())
		return nil, p.broken
	}
	return res, nil
}

func (p *proc) roundTrip(inputs [][]byte) ([]Result, error) {
	werr := make(chan error, 1)
	go func() {
		w := bufio.NewWriterSize(p.stdin, 1<<16)
		var hdr [5]byte
		for _, in := range inputs {
			if uint64(len(in)) > 1<<31 {
				werr <- errors.New("input too large")
				return
			}
			hdr[0] = 'E'
			binary.BigEndian.PutUint32(hdr[1:], uint32(len(in)))
			w.Write(hdr[:])
			w.Write(in)
		}
		werr <- w.Flush()
	}()
	out := make([]Result, len(inputs))
	var rerr error
	for i := range out {
		out[i], rerr = p.read()
		if rerr != nil {
			break
		}
	}
	if rerr != nil {
		p.stdin.Close() // unblocks the writer if node stopped reading
		<-werr
		return nil, rerr
	}
	if err := <-werr; err != nil {
		return nil, err
	}
	return out, nil
}

func (p *proc) read() (Result, error) {
	var r Result
	st, err := p.stdout.ReadByte()
	if err != nil {
		return r, err
	}
	r.Status = Status(st)
	if r.Decoded, err = p.chunk(); err != nil {
		return r, err
	}
	body, err := p.chunk()
	if err != nil {
		return r, err
	}
	n, err := p.u32()
	if err != nil {
		return r, err
	}
	if n > 0 {
		r.Strings = make([]StrLen, n)
		for i := range r.Strings {
			a, err := p.u32()
			if err != nil {
				return r, err
			}
			b, err := p.u32()
			if err != nil {
				return r, err
			}
			r.Strings[i] = StrLen{Len16: int(a), ByteLen: int(b)}
		}
	}
	switch r.Status {
	case Parsed:
		r.Stringified = body
	case ParseThrew, StringifyThrew:
		r.Err = string(body)
	default:
		return r, fmt.Errorf("unknown status %d", st)
	}
	return r, nil
}

func (p *proc) u32() (uint32, error) {
	var b [4]byte
	if _, err := io.ReadFull(p.stdout, b[:]); err != nil {
		return 0, err
	}
	return binary.BigEndian.Uint32(b[:]), nil
}

func (p *proc) chunk() ([]byte, error) {
	n, err := p.u32()
	if err != nil {
		return nil, err
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(p.stdout, b); err != nil {
		return nil, err
	}
	return b, nil
}

// Stringify returns Node's JSON.stringify(JSON.parse(data.toString("utf8")))
// as UTF-8 bytes. It fails the test when Node refuses data or cannot be run.
func Stringify(t testing.TB, data []byte) []byte {
	t.Helper()
	r := Eval(t, data)[0]
	if r.Status != Parsed {
		t.Fatalf("nodeoracle: Node refuses the input (%v): %s", r.Status, r.Err)
	}
	return r.Stringified
}
