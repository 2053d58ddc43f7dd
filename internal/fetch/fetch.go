// Package fetch reads an HTTP answer's body as Node's fetch (undici) reads
// it, so that a byte count here is Buffer.byteLength(await res.text()).
//
// Use it around every request whose answer is counted:
//
//	fetch.Prepare(req)
//	resp, err := client.Do(req)
//	...
//	body, err := fetch.Body(resp)
//	defer body.Close()
//	b, err := io.ReadAll(io.LimitReader(body, max+1))
//
// The steps, as undici takes them:
//  1. Prepare asks for the codings fetch asks for ("br, gzip, deflate" over
//     https, "gzip, deflate" over http, "identity" with a Range), unless the
//     request names its own; Go's transport then leaves the body as sent.
//  2. Body undoes the content codings listed in Content-Encoding, last
//     first: gzip and x-gzip, deflate (zlib-wrapped, or raw when its first
//     byte says so), br. One coding it does not know leaves the body as it
//     came; more than five is an error. HEAD, CONNECT and the null-body
//     statuses (101, 204, 205, 304) are never decoded. Decoding is lenient
//     as undici's (a flush at the end): a body cut short yields what was
//     decoded, an empty body yields nothing.
//  3. A leading byte-order mark is dropped, as text() (UTF-8 decode) drops
//     it. Invalid UTF-8 is left for the caller to decode (jsonjs.Decode).
package fetch

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/andybalholm/brotli"
)

// MaxCodings is the most content codings undici accepts on one answer.
const MaxCodings = 5

// Prepare sets the Accept-Encoding header fetch sends when req has none.
func Prepare(req *http.Request) {
	if req.Header == nil {
		req.Header = http.Header{}
	}
	if req.Header.Get("Range") != "" {
		req.Header.Add("Accept-Encoding", "identity")
	}
	if req.Header.Get("Accept-Encoding") != "" {
		return
	}
	if req.URL != nil && req.URL.Scheme == "https" {
		req.Header.Set("Accept-Encoding", "br, gzip, deflate")
	} else {
		req.Header.Set("Accept-Encoding", "gzip, deflate")
	}
}

// Codings returns the content codings fetch undoes for resp, in the order
// they are undone (the last applied first); nil when the body is read as
// it came. It fails when there are more than MaxCodings.
func Codings(resp *http.Response) ([]string, error) {
	if resp.Uncompressed {
		return nil, nil // Go's transport undid its own gzip
	}
	method := ""
	if resp.Request != nil {
		method = resp.Request.Method
	}
	switch {
	case method == http.MethodHead || method == http.MethodConnect:
		return nil, nil
	case resp.StatusCode == 101 || resp.StatusCode == 204 || resp.StatusCode == 205 || resp.StatusCode == 304:
		return nil, nil
	}
	ce := strings.Join(resp.Header.Values("Content-Encoding"), ", ")
	if ce == "" {
		return nil, nil
	}
	list := strings.Split(strings.ToLower(ce), ",")
	if len(list) > MaxCodings {
		return nil, fmt.Errorf("too many content codings (%d, fetch accepts at most %d): %s", len(list), MaxCodings, ce)
	}
	var out []string
	for i := len(list) - 1; i >= 0; i-- {
		c := strings.TrimSpace(list[i])
		switch c {
		case "gzip", "x-gzip", "deflate", "br":
			out = append(out, c)
		default:
			return nil, nil // undici then decodes nothing
		}
	}
	return out, nil
}

// Body returns resp's body as fetch's text() reads it, before UTF-8
// decoding: its content codings undone and a leading byte-order mark
// dropped. Closing it closes resp.Body. It fails only on a Content-Encoding
// fetch refuses; a broken coding shows as an error from Read.
func Body(resp *http.Response) (io.ReadCloser, error) {
	codings, err := Codings(resp)
	if err != nil {
		return nil, err
	}
	var r io.Reader = resp.Body
	for _, c := range codings {
		r = &lenient{src: r, coding: c}
	}
	return &body{r: &bomless{r: r}, c: resp.Body}, nil
}

// Decoded reports whether Body changes resp's bytes beyond a byte-order
// mark: when it does, resp.ContentLength is not the body's length.
func Decoded(resp *http.Response) bool {
	c, err := Codings(resp)
	return err != nil || len(c) > 0
}

type body struct {
	r io.Reader
	c io.Closer
}

func (b *body) Read(p []byte) (int, error) { return b.r.Read(p) }
func (b *body) Close() error               { return b.c.Close() }

// lenient undoes one coding as undici does: nothing in, nothing out; a
// stream cut short ends where its data ends.
type lenient struct {
	src    io.Reader
	coding string
	r      io.Reader
	done   bool
}

func (l *lenient) Read(p []byte) (int, error) {
	if l.done {
		return 0, io.EOF
	}
	if l.r == nil {
		br := bufio.NewReader(l.src)
		first, err := br.Peek(1)
		if len(first) == 0 {
			if err == io.EOF {
				l.done = true
				return 0, io.EOF
			}
			return 0, err
		}
		switch l.coding {
		case "gzip", "x-gzip":
			zr, err := gzip.NewReader(br)
			if err != nil {
				return 0, codingError(l.coding, err)
			}
			l.r = zr
		case "deflate":
			if first[0]&0x0f == 8 {
				zr, err := zlib.NewReader(br)
				if err != nil {
					return 0, codingError(l.coding, err)
				}
				l.r = zr
			} else {
				l.r = flate.NewReader(br)
			}
		case "br":
			l.r = brotli.NewReader(br)
		}
	}
	n, err := l.r.Read(p)
	if errors.Is(err, io.ErrUnexpectedEOF) {
		l.done = true
		return n, io.EOF
	}
	if err != nil && err != io.EOF {
		return n, codingError(l.coding, err)
	}
	return n, err
}

func codingError(coding string, err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) || err == io.EOF {
		err = errors.New("cut short")
	}
	return fmt.Errorf("the %s body cannot be decoded: %v", coding, err)
}

// bomless drops up to two leading UTF-8 byte-order marks, as undici's
// text() does: its UTF-8 decode drops one, then the TextDecoder it calls
// drops the next.
type bomless struct {
	r       io.Reader
	checked bool
	head    []byte
}

func (b *bomless) Read(p []byte) (int, error) {
	if !b.checked {
		b.checked = true
		var buf [6]byte
		n, err := io.ReadFull(b.r, buf[:])
		if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
			return 0, err
		}
		b.head = TrimBOM(buf[:n])
		if n < 6 {
			b.r = eofReader{}
		}
	}
	if len(b.head) > 0 {
		n := copy(p, b.head)
		b.head = b.head[n:]
		return n, nil
	}
	return b.r.Read(p)
}

type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }

// TrimBOM returns b without its leading byte-order marks, as text()
// drops them: at most two.
func TrimBOM(b []byte) []byte {
	bom := []byte{0xEF, 0xBB, 0xBF}
	return bytes.TrimPrefix(bytes.TrimPrefix(b, bom), bom)
}
