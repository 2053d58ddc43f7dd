package budgets

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/readmeter/readmeter/internal/units"
)

// RenderFile writes template with each placeholder replaced by a budget from f,
// as the service's reference prints them. The syntax:
//
//	{{FIRST_TASK_TOKENS.start_tasks}}        2,450   (en-US grouping)
//	{{ FIRST_TASK_TOKENS.start_tasks }}      the same; spaces inside are free
//	{{FIRST_TASK_TOKENS.start_tasks | raw}}  2450    (digits only)
//	{{"{{"}}                                 {{      (a quoted string, as is)
//
// Everything outside placeholders is copied byte for byte. An unknown
// budget, an unknown format or an unclosed placeholder is an error naming
// the template (name) and its line ("README.tmpl:3: ...").
func RenderFile(name string, template []byte, f *File) ([]byte, error) {
	var out bytes.Buffer
	ls := newLines(template, false)
	rest, off := template, 0
	for {
		k := bytes.Index(rest, []byte("{{"))
		if k < 0 {
			out.Write(rest)
			return out.Bytes(), nil
		}
		out.Write(rest[:k])
		start := off + k
		end := bytes.Index(rest[k+2:], []byte("}}"))
		if end < 0 {
			return nil, errAt(name, ls, start, "a {{ placeholder is not closed with }}")
		}
		inner := strings.TrimSpace(string(rest[k+2 : k+2+end]))
		adv := k + 2 + end + 2
		if strings.HasPrefix(inner, `"`) {
			s, err := strconv.Unquote(inner)
			if err != nil {
				return nil, errAt(name, ls, start, "%s is not a quoted string", inner)
			}
			out.WriteString(s)
		} else {
			ref, format, _ := strings.Cut(inner, "|")
			ref, format = strings.TrimSpace(ref), strings.TrimSpace(format)
			b, ok := f.Get(ref)
			if !ok {
				_, err := f.Lookup(ref)
				return nil, errAt(name, ls, start, "{{%s}}: %v", inner, err)
			}
			switch format {
			case "", "group":
				out.WriteString(units.Group(b.Value))
			case "raw":
				out.WriteString(strconv.FormatInt(b.Value, 10))
			default:
				return nil, errAt(name, ls, start, "{{%s}}: unknown format %q; use group (2,450) or raw (2450)", inner, format)
			}
		}
		rest, off = rest[adv:], off+adv
	}
}
