package mcpwire

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/tidwall/gjson"
)

// MaxPages bounds how many tools/list pages ListTools follows.
const MaxPages = 1000

// ListTools sends tools/list and follows nextCursor to the last page,
// returning every page's answer in order.
func (c *Client) ListTools(ctx context.Context) ([]*Response, error) {
	return c.ListToolsWith(ctx, nil)
}

// ListToolsWith is ListTools with the first request's params as given (a
// JSON object, sent as written; nil for none, as ListTools sends): each
// later page's params are those with "cursor" set to the nextCursor before
// it (replaced in place, or added last). It returns the pages read before
// any error.
func (c *Client) ListToolsWith(ctx context.Context, params json.RawMessage) ([]*Response, error) {
	var pages []*Response
	seen := map[string]bool{}
	var p any
	if params != nil {
		p = params
	}
	for {
		r, err := c.Request(ctx, "tools/list", p)
		if err != nil {
			return pages, err
		}
		pages = append(pages, r)
		next := gjson.GetBytes(r.Message, "result.nextCursor")
		if !next.Exists() || next.Type == gjson.Null || next.String() == "" {
			return pages, nil
		}
		if seen[next.String()] {
			return pages, c.fail("tools/list", fmt.Errorf("nextCursor %q repeats (page %d)", next.String(), len(pages)))
		}
		if len(pages) >= MaxPages {
			return pages, c.fail("tools/list", fmt.Errorf("more than %d pages", MaxPages))
		}
		seen[next.String()] = true
		q, _ := json.Marshal(next.String())
		np, err := withMember(params, "cursor", q)
		if err != nil {
			return pages, c.fail("tools/list", err)
		}
		p = np
	}
}

// withMember returns the JSON object obj (nil for {}) with key set to raw:
// replaced in place when present, else added last; every other member as
// written.
func withMember(obj json.RawMessage, key string, raw []byte) (json.RawMessage, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	n, found := 0, false
	if obj != nil {
		o := gjson.ParseBytes(obj)
		if !o.IsObject() {
			return nil, errors.New("params are not a JSON object")
		}
		o.ForEach(func(k, v gjson.Result) bool {
			if n > 0 {
				b.WriteByte(',')
			}
			n++
			b.WriteString(k.Raw)
			b.WriteByte(':')
			if k.String() == key {
				b.Write(raw)
				found = true
			} else {
				b.WriteString(v.Raw)
			}
			return true
		})
	}
	if !found {
		if n > 0 {
			b.WriteByte(',')
		}
		kq, _ := json.Marshal(key)
		b.Write(kq)
		b.WriteByte(':')
		b.Write(raw)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// MergeToolPages makes the tools/list pages ListTools returns into one
// JSON-RPC response, as a capture of several pages holds it:
// {"jsonrpc":"2.0","id":ID,"result":{...}} with the first page's id and
// result members in their order, "tools" holding every page's tools
// exactly as received, and "nextCursor" left out. One page gives its
// Message as it is.
func MergeToolPages(pages []*Response) ([]byte, error) {
	switch len(pages) {
	case 0:
		return nil, errors.New("no answer")
	case 1:
		return pages[0].Message, nil
	}
	var tools [][]byte
	for i, p := range pages {
		arr := gjson.GetBytes(p.Message, "result.tools")
		if !arr.IsArray() {
			return nil, fmt.Errorf("page %d has no result.tools array", i+1)
		}
		arr.ForEach(func(_, v gjson.Result) bool {
			tools = append(tools, []byte(v.Raw))
			return true
		})
	}
	first := pages[0].Message
	var b bytes.Buffer
	b.WriteString(`{"jsonrpc":"2.0","id":`)
	b.WriteString(gjson.GetBytes(first, "id").Raw)
	b.WriteString(`,"result":{`)
	n := 0
	gjson.GetBytes(first, "result").ForEach(func(k, v gjson.Result) bool {
		if k.Str == "nextCursor" {
			return true
		}
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		b.WriteString(k.Raw)
		b.WriteByte(':')
		if k.Str == "tools" {
			b.WriteByte('[')
			b.Write(bytes.Join(tools, []byte(",")))
			b.WriteByte(']')
		} else {
			b.WriteString(v.Raw)
		}
		return true
	})
	b.WriteString("}}")
	return b.Bytes(), nil
}
