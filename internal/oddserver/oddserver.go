// Package oddserver serves odd but legal HTTP answers on loopback, for
// tests that compare the toolkit's counts with what Node's fetch counts:
// every content coding fetch decodes (one at a time and stacked), empty
// bodies that still name a coding, a leading byte-order mark, invalid
// UTF-8, codings fetch does not know.
//
//	srv := httptest.NewServer(oddserver.Handler())
//	for _, b := range oddserver.Bodies() {
//		get(srv.URL + "/body/" + b.Name) // and ask nodeoracle.Fetch too
//	}
package oddserver

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/andybalholm/brotli"
)

// Text is the answer's text before any coding: multi-byte characters, a
// line separator and a final newline.
const Text = "{\"word\":\"h\u00e9llo \u2713 \u2028 \U0001F600\",\"n\":1}\n"

// Body is one odd answer: its status, headers and the bytes on the wire.
type Body struct {
	Name   string
	Status int
	Header http.Header
	Wire   []byte
}

// Encode applies codings in the order given (as Content-Encoding lists
// them) to b.
func Encode(b []byte, codings ...string) []byte {
	for _, c := range codings {
		var buf bytes.Buffer
		switch strings.ToLower(strings.TrimSpace(c)) {
		case "gzip", "x-gzip":
			w := gzip.NewWriter(&buf)
			w.Write(b)
			w.Close()
		case "deflate", "zlib":
			w := zlib.NewWriter(&buf)
			w.Write(b)
			w.Close()
		case "raw-deflate":
			w, _ := flate.NewWriter(&buf, flate.DefaultCompression)
			w.Write(b)
			w.Close()
		case "br":
			w := brotli.NewWriter(&buf)
			w.Write(b)
			w.Close()
		default:
			buf.Write(b)
		}
		b = buf.Bytes()
	}
	return b
}

func coded(name, header string, wire []byte) Body {
	h := http.Header{"Content-Type": {"application/json"}}
	if header != "" {
		h["Content-Encoding"] = []string{header}
	}
	return Body{Name: name, Status: 200, Header: h, Wire: wire}
}

// Bodies returns the odd answers Handler serves under /body/NAME.
func Bodies() []Body {
	t := []byte(Text)
	bom := append([]byte{0xEF, 0xBB, 0xBF}, t...)
	gz := Encode(t, "gzip")
	bs := []Body{
		coded("plain", "", t),
		coded("gzip", "gzip", gz),
		coded("x-gzip", "x-gzip", gz),
		coded("GZIP", "GZIP", gz),
		coded("deflate-zlib", "deflate", Encode(t, "zlib")),
		coded("deflate-raw", "deflate", Encode(t, "raw-deflate")),
		coded("br", "br", Encode(t, "br")),
		coded("gzip-br", "gzip, br", Encode(t, "gzip", "br")),
		coded("deflate-gzip-br", "deflate,gzip , br", Encode(t, "zlib", "gzip", "br")),
		coded("gzip-gzip", "gzip, gzip", Encode(t, "gzip", "gzip")),
		coded("identity-gzip", "identity, gzip", gz), // a coding fetch does not know: nothing decoded
		coded("unknown", "compress", t),
		coded("empty-gzip", "gzip", nil),
		coded("empty-br", "br", nil),
		coded("empty-deflate", "deflate", nil),
		coded("empty-stacked", "gzip, br", nil),
		coded("bom", "", bom),
		coded("bom-gzip", "gzip", Encode(bom, "gzip")),
		coded("bom-twice", "", append([]byte{0xEF, 0xBB, 0xBF}, bom...)),
		coded("bom-thrice", "", append([]byte{0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF}, bom...)),
		coded("bom-only", "", []byte{0xEF, 0xBB, 0xBF}),
		coded("bom-cut", "", []byte{0xEF, 0xBB}),
		coded("invalid-utf8", "", []byte("a\xff\xfe b \xe2\x82 c \xed\xa0\x80 d\xf0\x9f")),
		coded("gzip-cut", "gzip", gz[:len(gz)-6]), // the trailer cut off
		{Name: "no-content-gzip", Status: 204, Header: http.Header{"Content-Encoding": {"gzip"}}},
	}
	two := coded("two-lines", "", Encode(t, "gzip", "br"))
	two.Header["Content-Encoding"] = []string{"gzip", "br"}
	return append(bs, two)
}

// Handler serves /body/NAME for each of Bodies (HEAD as well: its headers
// without a body), and /mcp/NAME for each of Streams.
func Handler() http.Handler {
	mux := http.NewServeMux()
	for _, b := range Bodies() {
		mux.HandleFunc("/body/"+b.Name, func(w http.ResponseWriter, r *http.Request) {
			for k, v := range b.Header {
				w.Header()[k] = v
			}
			w.WriteHeader(b.Status)
			if r.Method != http.MethodHead && b.Status != 204 {
				w.Write(b.Wire)
			}
		})
	}
	for _, st := range Streams() {
		mux.HandleFunc("/mcp/"+st.Name, func(w http.ResponseWriter, r *http.Request) {
			serveStream(st, w, r)
		})
	}
	return mux
}

// Stream is one odd event-stream answer to an MCP request: its chunks, in
// which "ID" stands for the request's id, and the coding of the whole.
type Stream struct {
	Name   string
	Chunks []string
	Coding string
}

const answer = `{"jsonrpc":"2.0","id":ID,"result":{"w":"\u00e9\u2713"}}`

// Streams returns the event streams Handler serves under /mcp/NAME.
func Streams() []Stream {
	return []Stream{
		{Name: "lf", Chunks: []string{"event: message\ndata: " + answer + "\n\n"}},
		{Name: "crlf", Chunks: []string{"event: message\r\ndata: " + answer + "\r\n\r\n"}},
		{Name: "cr", Chunks: []string{"event: message\rdata: " + answer + "\r\r"}},
		{Name: "crlf-split", Chunks: []string{"data: " + answer + "\r", "\n\r", "\n: ping\r", "\n"}},
		{Name: "notice-first", Chunks: []string{"id: 1\ndata:\n\n", `data: {"jsonrpc":"2.0","method":"notifications/message","params":{}}` + "\n\n", "data: " + answer + "\n\n"}},
		{Name: "trailing-comment", Chunks: []string{"data: " + answer + "\n\n", ": bye\n"}},
		{Name: "trailing-bytes", Chunks: []string{"data: " + answer + "\n\n", ": no line end"}},
		{Name: "heartbeats", Chunks: []string{"data: " + answer + "\n\n", ": ping\n\n", ": ping\n\n", ": ping\n\n"}},
		{Name: "no-blank-line", Chunks: []string{"data: " + answer + "\n"}},
		{Name: "no-line-end", Chunks: []string{"data: " + answer}},
		{Name: "multi-line-data", Chunks: []string{"data: {\"jsonrpc\":\"2.0\",\ndata: \"id\":ID,\"result\":{}}\n\n"}},
		{Name: "bom", Chunks: []string{"\uFEFFdata: " + answer + "\n\n"}},
		{Name: "gzip", Chunks: []string{"data: " + answer + "\n\n: tail\n"}, Coding: "gzip"},
		{Name: "br", Chunks: []string{"data: " + answer + "\r\n\r\n"}, Coding: "br"},
		{Name: "deflate-raw", Chunks: []string{"data: " + answer + "\n\n"}, Coding: "raw-deflate"},
		{Name: "gzip-br", Chunks: []string{"data: " + answer + "\n\n"}, Coding: "gzip, br"},
	}
}

// serveStream writes st's chunks, flushed one by one, with the request's
// id in place of ID. The query's delay (a duration) sleeps between chunks
// and hold=1 keeps the stream open afterwards until the client leaves.
func serveStream(st Stream, w http.ResponseWriter, r *http.Request) {
	var req struct {
		ID json.RawMessage `json:"id"`
	}
	json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&req)
	id := string(req.ID)
	if id == "" {
		id = "null"
	}
	delay, _ := time.ParseDuration(r.URL.Query().Get("delay"))
	w.Header().Set("Content-Type", "text/event-stream")
	var chunks [][]byte
	for _, c := range st.Chunks {
		chunks = append(chunks, []byte(strings.ReplaceAll(c, "ID", id)))
	}
	if st.Coding != "" {
		codings := strings.Split(st.Coding, ",")
		chunks = [][]byte{Encode(bytes.Join(chunks, nil), codings...)}
		header := st.Coding
		if header == "raw-deflate" {
			header = "deflate"
		}
		w.Header().Set("Content-Encoding", header)
	}
	w.WriteHeader(200)
	f, _ := w.(http.Flusher)
	for i, c := range chunks {
		if i > 0 && delay > 0 {
			time.Sleep(delay)
		}
		w.Write(c)
		if f != nil {
			f.Flush()
		}
	}
	if r.URL.Query().Get("hold") == "1" {
		<-r.Context().Done()
	}
}
