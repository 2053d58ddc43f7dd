package toollist

import (
	"runtime"
	"sync"
	"unsafe"

	"github.com/readmeter/readmeter/jsonjs"
)

// Counter counts the tokens of a text as one tokenizer does
// (tokenize.Tokenizer is one). Count must be safe for concurrent use, and
// must not keep text, or a part of it, once it returns: Open hands
// it texts in buffers it writes again.
type Counter interface {
	Name() string
	Count(text string) int
}

// TokenizerCount is one tokenizer's count of what a model reads.
type TokenizerCount struct {
	// Name is the tokenizer's short name (o200k).
	Name string
	// Tokens is its count: of a tool's model-read text, or summed over
	// the tools.
	Tokens int64
}

// ModelReadText returns what a model reads of the i-th tool:
// JSON.stringify({name, description, input_schema: inputSchema}) as Node
// writes it.
func (c *Capture) ModelReadText(i int) (_ []byte, err error) {
	defer c.pg.caught(c.pg.guard(), &err)
	return c.modelReadText(i)
}

// modelReadText is ModelReadText, unguarded.
func (c *Capture) modelReadText(i int) ([]byte, error) {
	return appendModelRead(nil, c.Tools[i]), nil
}

// appendModelRead appends to dst what a model reads of the tool whose
// validated text is raw, JSON.stringify({name, description, input_schema:
// inputSchema}) as Node writes it, written from the text (see
// jsonjs.AppendStringifyValid) without parsing the tool. Of a repeated
// member, the last counts, as JavaScript keeps it; a tool that is not an
// object reads as {}.
func appendModelRead(dst, raw []byte) []byte {
	return appendModelReadFigures(dst, raw, nil, nil)
}

// appendModelReadFigures is appendModelRead that, when tf is not nil, also
// measures the tool (an object) into tf and sc from the text it writes,
// as scanTool does from the tool's: what a model reads is that text, and
// the field descriptions are counted as the schema is written.
func appendModelReadFigures(dst, raw []byte, tf *ToolFigures, sc *scanned) []byte {
	i := jsonjs.SkipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return append(dst, "{}"...)
	}
	at := [3]int{-1, -1, -1} // where the name, description and inputSchema values start
	for i++; ; {
		key, v, more := jsonjs.NextMemberValid(raw, i)
		if !more {
			break
		}
		i = v
		switch {
		case jsonjs.KeyIs(key, "name"):
			at[0] = i
		case jsonjs.KeyIs(key, "description"):
			at[1] = i
		case jsonjs.KeyIs(key, "inputSchema"):
			at[2] = i
		}
		i = jsonjs.SkipValid(raw, i)
	}
	start := len(dst)
	var tok [2][]byte // the name's and description's texts
	var fields int64
	dst = append(dst, '{')
	first := true
	for k, key := range [3]string{`"name":`, `"description":`, `"input_schema":`} {
		if at[k] < 0 {
			continue
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = append(dst, key...)
		var end int
		if k == 2 && tf != nil {
			dst, end, fields = jsonjs.AppendStringifyValidKey(dst, raw, at[k], "description")
		} else {
			dst, end = jsonjs.AppendStringifyValid(dst, raw, at[k])
		}
		if k < 2 {
			tok[k] = raw[at[k]:end]
		}
	}
	dst = append(dst, '}')
	if tf != nil {
		fill(tf, sc, tok[0], tok[1], at[2] >= 0, int64(len(dst)-start), fields)
	}
	return dst
}

// countBatch is how many tools a counting worker takes at once.
const countBatch = 64

// countTokens counts, with each counter, the tokens of every tool's
// model-read text, and records them in f: in f.ToolTokenCounts and,
// summed over the tools, in f.Tokenizers, in the counters' order. f must
// be the figures measure returned for c; the tools the validating pass p
// counted (p may be nil) are not read again. Tools are counted on several
// cores, a batch at a time, each text written into a buffer of the
// worker's own, read in place by the counters.
func countTokens(c *Capture, p *pass, f *Figures, counters []Counter) (err error) {
	if len(counters) == 0 {
		return nil
	}
	defer c.pg.caught(c.pg.guard(), &err)
	n := len(c.Tools)
	var per []int64
	counted := func(i int) bool { return false }
	if p != nil && p.tokens != nil {
		per, p.tokens = p.tokens, nil // the figures' from here on
		counted = func(i int) bool { return per[i*len(counters)] >= 0 }
	} else {
		per = make([]int64, n*len(counters))
	}
	workers := min(runtime.GOMAXPROCS(0), max(1, (n+countBatch-1)/countBatch), 8)
	var (
		wg    sync.WaitGroup
		next  = make(chan int, workers)
		mu    sync.Mutex
		first error
		at    = n
	)
	for range workers {
		wg.Go(func() {
			var buf []byte
			for lo := range next {
				for i := lo; i < min(lo+countBatch, n); i++ {
					if counted(i) {
						continue
					}
					text, err := c.readTextGuarded(buf[:0], i)
					if err != nil {
						mu.Lock()
						if i < at {
							first, at = err, i
						}
						mu.Unlock()
						continue
					}
					buf = text
					// read in place: buf is not written while the
					// counters run, and they keep nothing of it
					s := unsafe.String(unsafe.SliceData(text), len(text))
					for k, ct := range counters {
						per[i*len(counters)+k] = int64(ct.Count(s))
					}
				}
			}
		})
	}
	for lo := 0; lo < n; lo += countBatch {
		for i := lo; i < min(lo+countBatch, n); i++ {
			if !counted(i) {
				next <- lo
				break
			}
		}
	}
	close(next)
	wg.Wait()
	if first != nil {
		return first
	}
	f.Tokenizers = make([]TokenizerCount, len(counters))
	for k, ct := range counters {
		f.Tokenizers[k].Name = ct.Name()
	}
	for i := range f.PerTool {
		for k := range counters {
			f.Tokenizers[k].Tokens += per[i*len(counters)+k]
		}
	}
	f.ToolTokenCounts = per
	return nil
}

// readTextGuarded appends the i-th tool's model-read text to dst, on a
// goroutine of its own: when the file changed under it, the error is the
// capture's (see pages).
func (c *Capture) readTextGuarded(dst []byte, i int) (text []byte, err error) {
	defer c.pg.caught(c.pg.guard(), nil)
	if err := c.pg.failed(); err != nil {
		return nil, err
	}
	text = appendModelRead(dst, c.Tools[i])
	if e := c.pg.failed(); e != nil {
		return nil, e
	}
	return text, nil
}

// TokenizerTokens returns the count of the tokenizer named in counts, and
// whether it is there.
func TokenizerTokens(counts []TokenizerCount, name string) (int64, bool) {
	for _, t := range counts {
		if t.Name == name {
			return t.Tokens, true
		}
	}
	return 0, false
}
