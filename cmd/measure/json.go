package main

import (
	"io"
	"strconv"

	"github.com/readmeter/readmeter/gate"
	"github.com/readmeter/readmeter/internal/jsonout"
	"github.com/readmeter/readmeter/jsonjs"
	"github.com/readmeter/readmeter/toollist"
)

// appendReport appends the compact --json object of one capture:
// "capture", "form", the figures (toollist.WriteFiguresJSON, written one
// tool at a time and handed to flush in pieces), then the sections asked
// for.
func appendReport(dst []byte, r *report, o *options, flush func([]byte) []byte) []byte {
	head := jsonjs.Stringify(jsonjs.ObjectValue([]jsonjs.Member{member("capture", str(r.capture.Path)), member("form", str(r.capture.Form.String()))}))
	dst = append(dst, head[:len(head)-1]...)
	dst = toollist.WriteFiguresJSON(append(dst, ','), r.figures, flush)
	for _, m := range sections(r, o) {
		switch m.Key {
		case savingsKey:
			dst = appendSavings(dst, r.savings, flush)
			continue
		case profileKey:
			dst = appendProfile(append(dst, `,"profile":`...), r.profile, flush)
			continue
		}
		dst = jsonjs.AppendStringify(append(jsonjs.AppendQuote(append(dst, ','), m.Key), ':'), m.Value)
	}
	return append(dst, '}')
}

// savingsKey stands in sections for the what-ifs' savings, which
// appendSavings writes (a list of every tool changed is not built as
// values).
const savingsKey = "\x00savings"

// appendSavings appends each what-if's member, handing long lists of the
// tools changed to flush in pieces.
func appendSavings(dst []byte, savings []toollist.Saving, flush func([]byte) []byte) []byte {
	for _, s := range savings {
		dst = append(jsonjs.AppendQuote(append(dst, ','), s.Name), `:{"wire_saving_bytes":`...)
		dst = strconv.AppendInt(dst, s.WireSavingBytes, 10)
		dst = strconv.AppendInt(append(dst, `,"model_read_saving_bytes":`...), s.ModelReadSavingBytes, 10)
		dst = strconv.AppendInt(append(dst, `,"changes":`...), int64(s.Changes), 10)
		dst = append(dst, `,"tools_changed":[`...)
		for i, t := range s.Tools {
			if i > 0 {
				dst = append(dst, ',')
				if len(dst) >= 64<<10 {
					dst = flush(dst)
				}
			}
			dst = jsonjs.AppendQuote(dst, t)
		}
		dst = append(dst, "]}"...)
	}
	return dst
}

// sections returns the members of a report after the figures; the
// savings, when there are any, are one member named savingsKey.
func sections(r *report, o *options) []jsonjs.Member {
	var ms []jsonjs.Member
	if o.toolsets != "" && r.sets != nil {
		sets := make([]jsonjs.Value, len(r.sets))
		for i, s := range r.sets {
			sets[i] = jsonjs.ObjectValue([]jsonjs.Member{
				member("name", str(s.Name)),
				member("tools", num(int64(len(s.Tools)))),
				member("tool_names", strs(s.Tools)),
				member("model_read_bytes", num(s.ModelReadBytes)),
				member("model_read_tokens", num(s.ModelReadTokens)),
			})
		}
		ms = append(ms, member("toolsets", jsonjs.ArrayValue(sets)))
	}
	if r.init != nil {
		in := []jsonjs.Member{member("source", str(r.init.Path))}
		if r.init.HasInstructions {
			in = append(in, member("chars", num(int64(r.init.Chars))), member("bytes", num(r.init.Bytes)))
		} else {
			in = append(in, member("chars", jsonjs.NullValue()), member("bytes", jsonjs.NullValue()))
		}
		ms = append(ms, member("instructions", jsonjs.ObjectValue(in)))
	}
	if len(r.savings) > 0 {
		ms = append(ms, member(savingsKey, jsonjs.NullValue()))
	}
	if r.profile != nil {
		ms = append(ms, member(profileKey, jsonjs.NullValue()))
	}
	over := make([]jsonjs.Value, len(r.over))
	for i, ov := range r.over {
		om := []jsonjs.Member{member("what", str(ov.What))}
		if ov.What == "description" {
			om = append(om, member("tool", str(ov.Tool)))
		} else {
			om = append(om, member("source", str(r.init.Path)))
		}
		om = append(om, member("chars", num(int64(ov.Chars))), member("max", num(int64(ov.Max))))
		over[i] = jsonjs.ObjectValue(om)
	}
	ceiling := func(asked bool, n int) jsonjs.Value {
		if !asked {
			return jsonjs.NullValue()
		}
		return num(int64(n))
	}
	ms = append(ms, member("ceilings", jsonjs.ObjectValue([]jsonjs.Member{
		member("max_description_chars", ceiling(o.descCeiling, o.maxDescriptionChars)),
		member("max_instructions_chars", ceiling(o.instrCeiling, o.maxInstructionsChars)),
		member("over", jsonjs.ArrayValue(over)),
	})))
	lints := make([]jsonjs.Value, len(r.lints))
	for i, l := range r.lints {
		lm := []jsonjs.Member{member("rule", str(l.Rule))}
		if l.Tool != "" {
			lm = append(lm, member("tool", str(l.Tool)))
		}
		lints[i] = jsonjs.ObjectValue(append(lm, member("message", str(l.Text))))
	}
	ms = append(ms, member("lints", jsonjs.ArrayValue(lints)))
	if len(r.clients) > 0 {
		ms = append(ms, member("clients", clientsValue(r)))
	}
	if o.marginal {
		ms = append(ms, member("marginal", marginalValue(r)))
	}
	if len(o.budget) > 0 || o.budgetsFile != "" {
		bs := make([]jsonjs.Value, len(r.budgets))
		for i, c := range r.budgets {
			bs[i] = jsonjs.ObjectValue([]jsonjs.Member{
				member("name", str(c.Key)),
				member("what", str(c.Subject)),
				member("tokens", num(c.Read)),
				member("bytes", num(c.Bytes)),
				member("budget", num(c.Budget.Value)),
				member("where", str(c.Budget.Where())),
				member("over", jsonjs.BoolValue(c.Status == gate.Over)),
			})
		}
		ms = append(ms, member("budgets", jsonjs.ArrayValue(bs)))
	}
	return append(ms, member("warnings", strs(r.allWarnings())), member("notes", strs(r.notes)))
}

// writeJSON prints one object for one capture, an array for several,
// indented as JSON.stringify(v, null, 2) writes it, a piece at a time.
func writeJSON(w io.Writer, reports []*report, o *options) error {
	j := jsonout.NewWriter(w)
	text := make([]byte, 0, 80<<10)
	array := len(reports) > 1 || o.jsonArray
	if array {
		text = append(text, '[')
	}
	for i, r := range reports {
		if i > 0 {
			text = append(text, ',')
		}
		text = appendReport(text, r, o, j.Put)
	}
	if array {
		text = append(text, ']')
	}
	j.Put(text)
	return j.End()
}

func printJSON(w io.Writer, v jsonjs.Value) error {
	return jsonout.Write(w, jsonjs.Stringify(v))
}
