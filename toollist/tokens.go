package toollist

import (
	"runtime"
	"sync"

	"github.com/readmeter/readmeter/jsonjs"
)

// Counter counts the tokens of a text as one tokenizer does
// (tokenize.Tokenizer is one). Count must be safe for concurrent use.
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
	tool, err := c.tool(i)
	if err != nil {
		return nil, err
	}
	return jsonjs.Stringify(ModelRead(tool)), nil
}

// CountTokens counts, with each counter, the tokens of every tool's
// model-read text, and records them in f: in each tool's Tokenizers and,
// summed over the tools, in f.Tokenizers, in the counters' order. f must
// be the figures Measure returned for c. Tools are counted on several
// cores.
func CountTokens(c *Capture, f *Figures, counters []Counter) (err error) {
	if len(counters) == 0 {
		return nil
	}
	defer c.pg.caught(c.pg.guard(), &err)
	n := len(c.Tools)
	per := make([]int64, n*len(counters))
	workers := min(runtime.GOMAXPROCS(0), max(1, n), 8)
	var (
		wg    sync.WaitGroup
		next  = make(chan int)
		mu    sync.Mutex
		first error
		at    = n
	)
	for range workers {
		wg.Go(func() {
			for i := range next {
				text, err := c.readTextGuarded(i)
				if err != nil {
					mu.Lock()
					if i < at {
						first, at = err, i
					}
					mu.Unlock()
					continue
				}
				s := string(text)
				for k, ct := range counters {
					per[i*len(counters)+k] = int64(ct.Count(s))
				}
			}
		})
	}
	for i := range n {
		next <- i
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
		tc := make([]TokenizerCount, len(counters))
		for k, ct := range counters {
			tc[k] = TokenizerCount{Name: ct.Name(), Tokens: per[i*len(counters)+k]}
			f.Tokenizers[k].Tokens += tc[k].Tokens
		}
		f.PerTool[i].Tokenizers = tc
	}
	return nil
}

// readTextGuarded is modelReadText on a goroutine of its own: when the
// file changed under it, the error is the capture's (see pages).
func (c *Capture) readTextGuarded(i int) (text []byte, err error) {
	defer c.pg.caught(c.pg.guard(), nil)
	if err := c.pg.failed(); err != nil {
		return nil, err
	}
	text, err = c.modelReadText(i)
	if e := c.pg.failed(); e != nil {
		return nil, e
	}
	return text, err
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
