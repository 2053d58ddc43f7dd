package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/readmeter/readmeter/internal/jsonout"
	"github.com/readmeter/readmeter/internal/table"
	"github.com/readmeter/readmeter/internal/units"
	"github.com/readmeter/readmeter/jsonjs"
	"github.com/readmeter/readmeter/toollist"
)

// profileDoc is what measure's help says of --profile and the finders.
func profileDoc() string {
	var b strings.Builder
	b.WriteString(`
Where the bytes go (--profile): every byte a model reads of each tool is
attributed to one component, and the components add up to the model-read
bytes exactly (a sum that does not is an error, exit 2):
`)
	for _, c := range toollist.ProfileComponents {
		fmt.Fprintf(&b, "  %-19s %s\n", c.Name, c.About)
	}
	b.WriteString(`description and field_descriptions count JSON text, quotes and escapes
included, so that the components add up; the figures above the profile
("descriptions", "field descriptions") count the text alone, in UTF-8 bytes.
Members a client does not hand to a model (outputSchema, annotations,
_meta, title, icons, execution) are shown apart as wire bytes. Findings
are what the tools repeat across each other (a subschema, a description
sentence, tools whose schemas differ in a few values): estimates, marked ~.
They overlap (a description sentence inside a repeated subschema is
counted by both), so no total adds them.
The finders --drop-unused-defs and --hoist-repeated are what-ifs, exact
to the byte; a tool whose $refs they cannot follow is left as it is, with a
warning naming the tool and the JSON path.
`)
	return b.String()
}

// finderFlags binds --profile and the finders' what-ifs.
func finderFlags(fs *pflag.FlagSet, o *options) {
	fs.BoolVar(&o.profile, "profile", false, "print where every model-read byte goes, component by component (with each --tokenizer's tokens), per tool in --json, with what the tools repeat across each other")
	fs.BoolVar(&o.dropUnusedDefs, "drop-unused-defs", false, "what-if: remove the root $defs/definitions entries of each inputSchema that no $ref reaches")
	fs.BoolVar(&o.hoistRepeated, "hoist-repeated", false, "what-if: hoist the subschemas an inputSchema repeats into its root $defs, a $ref at each copy, where that saves bytes")
}

// finderTransforms returns the finders' what-ifs asked for, in the order
// they apply (after --lean, --drop-empty-output-schemas and --words).
func finderTransforms(o *options) []toollist.Transform {
	var ts []toollist.Transform
	if o.dropUnusedDefs {
		ts = append(ts, toollist.DropUnusedDefs())
	}
	if o.hoistRepeated {
		ts = append(ts, toollist.HoistRepeated())
	}
	return ts
}

// transformWarnings returns the lines of the what-ifs that left tools as
// they were.
func transformWarnings(ts []toollist.Transform) []string {
	var ws []string
	for _, t := range ts {
		if w, ok := t.(toollist.Warner); ok {
			ws = append(ws, w.Warnings()...)
		}
	}
	return ws
}

// checkProfile holds the profile's sums to the figures, measured apart:
// a tool whose components do not add up to the bytes a model reads of it
// is a bug in the profile, reported, never rounded away.
func checkProfile(p *toollist.ByteProfile, f *toollist.Figures) error {
	if f == nil || p.Tools() != len(f.PerTool) {
		return nil
	}
	for i := range p.Tools() {
		if n := p.ToolModelReadBytes(i); n != f.PerTool[i].ModelReadBytes {
			return fmt.Errorf("tool %s: the profile's components add up to %d bytes, not the %d a model reads: a bug in the profile", p.Tool(i).Name, n, f.PerTool[i].ModelReadBytes)
		}
	}
	return nil
}

// descriptionsNote is the line under the components that tells their
// description figures from the head table's.
const descriptionsNote = `description and field_descriptions count JSON text (quotes, escapes, a field's key and comma) so the components add up; the description figures above count the text alone (UTF-8 bytes)`

// findingsNote is the line under the findings that says their savings
// overlap.
const findingsNote = `the findings overlap (a sentence inside a repeated subschema is counted by both; similar tools share their subschemas), so no total adds their savings`

// profileNotes says which of the profile's notes were printed, so that
// several reports print each once.
type profileNotes struct{ descriptions, findings bool }

// writeProfile prints the profile of one report: the components, the
// wire-only members and the findings, with a note under a table the first
// time it is printed.
func writeProfile(w io.Writer, r *report, several bool, said *profileNotes) {
	p := r.profile
	if p == nil {
		return
	}
	suffix := ""
	if several {
		suffix = ", " + r.capture.Path
	}
	fmt.Fprintln(w)
	head := []string{"component" + suffix, "bytes", units.TokensLabel}
	var names []string
	if len(p.Components) > 0 {
		for _, tc := range p.Components[0].Tokenizers {
			names = append(names, tc.Name)
		}
	}
	head = append(append(head, names...), "share")
	t := table.New(head...)
	for i := 1; i < len(head); i++ {
		t.Right(i)
	}
	sums := make([]int64, len(names))
	for _, c := range p.Components {
		row := []string{c.Name, group(c.Bytes), group(c.Bytes / 3)}
		for k, tc := range c.Tokenizers {
			row = append(row, group(tc.Tokens))
			sums[k] += tc.Tokens
		}
		t.Add(append(row, share(c.Bytes, p.ModelReadBytes))...)
	}
	row := []string{"total", group(p.ModelReadBytes), group(p.ModelReadBytes / 3)}
	for _, n := range sums {
		row = append(row, group(n))
	}
	t.Add(append(row, share(p.ModelReadBytes, p.ModelReadBytes))...)
	render(w, t)
	if !said.descriptions {
		said.descriptions = true
		fmt.Fprintln(w)
		line(w, "%s", descriptionsNote)
	}
	if len(p.Wire) > 0 {
		fmt.Fprintln(w)
		t := table.New("wire only, not read by a model"+suffix, "bytes").Right(1)
		var sum int64
		for _, c := range p.Wire {
			t.Add(c.Name, group(c.Bytes))
			sum += c.Bytes
		}
		t.Add("total", group(sum))
		render(w, t)
	}
	if len(p.Findings) > 0 {
		fmt.Fprintln(w)
		t := table.New("repeated across tools"+suffix, "tools", "bytes each", "saving (estimate)", "what").Right(1, 2, 3)
		for _, f := range p.Findings {
			t.Add(f.Kind, group(int64(len(f.Tools))), group(f.Bytes), "~"+group(f.EstimatedSavingBytes), findingWhat(f))
		}
		render(w, t)
		if !said.findings {
			said.findings = true
			fmt.Fprintln(w)
			line(w, "%s", findingsNote)
		}
	}
}

// findingWhat is a finding's text cut to a line, or the tools it names.
func findingWhat(f toollist.Finding) string {
	s := f.Text
	if f.Kind == toollist.FindSimilarTools {
		s = strings.Join(f.Tools, ", ")
	}
	if len(s) > 60 {
		cut := 57
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		s = s[:cut] + "..."
	}
	return s
}

// appendComponents appends a list of components as --json writes it.
func appendComponents(dst []byte, cs []toollist.Component) []byte {
	dst = append(dst, '[')
	for i, c := range cs {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = jsonjs.AppendQuote(append(dst, `{"name":`...), c.Name)
		dst = strconv.AppendInt(append(dst, `,"bytes":`...), c.Bytes, 10)
		dst = strconv.AppendInt(append(dst, `,"tokens":`...), c.Bytes/3, 10)
		for k, tc := range c.Tokenizers {
			if k == 0 {
				dst = append(dst, `,"tokenizers":{`...)
			} else {
				dst = append(dst, ',')
			}
			dst = strconv.AppendInt(append(jsonjs.AppendQuote(dst, tc.Name), ':'), tc.Tokens, 10)
		}
		if len(c.Tokenizers) > 0 {
			dst = append(dst, '}')
		}
		dst = append(dst, '}')
	}
	return append(dst, ']')
}

// profileFindingJSON is a finding in the profile's --json "findings".
type profileFindingJSON struct {
	Kind                 string   `json:"kind"`
	Text                 string   `json:"text"`
	Tools                []string `json:"tools"`
	Bytes                int64    `json:"bytes"`
	EstimatedSavingBytes int64    `json:"estimated_saving_bytes"`
	Estimate             bool     `json:"estimate"`
}

// appendProfile appends the profile as --json writes it under "profile",
// a tool at a time, handing what it wrote to flush every 64 KiB or so.
func appendProfile(dst []byte, p *toollist.ByteProfile, flush func([]byte) []byte) ([]byte, error) {
	dst = strconv.AppendInt(append(dst, `{"model_read_bytes":`...), p.ModelReadBytes, 10)
	dst = appendComponents(append(dst, `,"components":`...), p.Components)
	dst = appendComponents(append(dst, `,"wire":`...), p.Wire)
	dst = append(dst, `,"per_tool":[`...)
	var tp toollist.ToolProfile // one tool at a time, in one room
	for i := range p.Tools() {
		if i > 0 {
			dst = append(dst, ',')
			if flush != nil && len(dst) >= 64<<10 {
				dst = flush(dst)
			}
		}
		p.ToolInto(i, &tp)
		dst = jsonjs.AppendQuote(append(dst, `{"name":`...), tp.Name)
		dst = strconv.AppendInt(append(dst, `,"model_read_bytes":`...), tp.ModelReadBytes, 10)
		dst = appendComponents(append(dst, `,"components":`...), tp.Components)
		dst = appendComponents(append(dst, `,"wire":`...), tp.Wire)
		dst = append(dst, '}')
	}
	fs := make([]profileFindingJSON, len(p.Findings))
	for i, f := range p.Findings {
		fs[i] = profileFindingJSON{f.Kind, f.Text, f.Tools, f.Bytes, f.EstimatedSavingBytes, true}
	}
	dst, err := jsonout.AppendMembers(append(dst, ']'), struct {
		Findings []profileFindingJSON `json:"findings"`
	}{fs})
	return append(dst, '}'), err
}
