package toollist_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/readmeter/readmeter/internal/nodeoracle"
	"github.com/readmeter/readmeter/toollist"
)

// answerJS renders each answer (one JSON text a line, base64) as
// ReadAnswer does, in Node: JavaScript's own JSON.parse, string length and
// UTF-8 byte length are the oracle for the counts.
var answerJS = nodeoracle.AnswerJS + `
const lines = require('fs').readFileSync(0, 'utf8').split('\n').filter(Boolean);
for (const l of lines) {
  let v = JSON.parse(Buffer.from(l, 'base64').toString('utf8'));
  if (v && typeof v === 'object' && 'result' in v) v = v.result;
  const r = renderAnswer(v);
  console.log(JSON.stringify({chars: r.chars, bytes: r.text_bytes, tokens: Math.floor(r.text_bytes / 3), is_error: r.is_error, images: r.images}));
}
`

func TestReadAnswerNode(t *testing.T) {
	answers := []string{
		`{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"hello"}]}}`,
		`{"content":[{"type":"text","text":"é ✓ 😀 \ud800 \u00e9\/"},{"type":"text","text":"two"}],"isError":true}`,
		`{"content":[{"type":"text","text":"first","text":"last wins"}]}`,
		`{"content":[{"type":"resource","resource":{"uri":"file:///a","text":"a file's text"}},{"type":"resource","resource":{"uri":"file:///b","blob":"AAAA"}}]}`,
		`{"content":[{"type":"resource_link","uri":"file:///x","name":"x","description":"<a & b>"},{"type":"image","data":"AAAA","mimeType":"image/png"}]}`,
		`{"content":[],"structuredContent":{"10":1,"a":[1.0,1e21,-0],"b":"\u2028"}}`,
		`{"structuredContent":{"task":{"number":7}}}`,
		"{\"content\":[{\"type\":\"text\",\"text\":\"bad \xff\xfe utf-8\"}]}",
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"` + strings.Repeat("ab\\n", 20000) + `"}],"isError":false}}`,
	}
	node, err := nodeoracle.NodePath()
	if err != nil {
		t.Fatal(err)
	}
	var in bytes.Buffer
	for _, a := range answers {
		in.WriteString(b64(a) + "\n")
	}
	cmd := exec.Command(node, "-e", answerJS)
	cmd.Stdin = &in
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != len(answers) {
		t.Fatalf("node answered %d lines for %d answers", len(lines), len(answers))
	}
	for i, a := range answers {
		got, err := toollist.ReadAnswer([]byte(a))
		if err != nil {
			t.Fatalf("answer %d: %v", i, err)
		}
		var want toollist.Answer
		if err := json.Unmarshal([]byte(lines[i]), &want); err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("answer %d (-node +ReadAnswer):\n%s", i, d)
		}
	}
}

func TestCheckAnswer(t *testing.T) {
	type lint struct {
		Limit string
		Max   int64
		Read  int64
	}
	raised := map[string]int64{"anthropic/maxResultSizeChars": 200_000}
	huge := map[string]int64{"anthropic/maxResultSizeChars": 900_000}
	for _, tc := range []struct {
		name string
		a    toollist.Answer
		meta map[string]int64
		want []lint
	}{
		{"small", toollist.Answer{Chars: 100, Bytes: 100, Tokens: 33}, nil, nil},
		{"at the threshold", toollist.Answer{Chars: 50_000, Bytes: 50_000, Tokens: 16_666}, nil, []lint{{"output warning", 10_000, 16_666}}},
		{"over it", toollist.Answer{Chars: 50_001, Bytes: 50_001, Tokens: 16_667}, nil, []lint{{"file threshold", 50_000, 50_001}, {"output warning", 10_000, 16_667}}},
		{"raised by _meta", toollist.Answer{Chars: 60_000, Bytes: 60_000, Tokens: 20_000}, raised, []lint{{"output warning", 10_000, 20_000}}},
		{"_meta capped", toollist.Answer{Chars: 600_000, Bytes: 600_000, Tokens: 200_000}, huge, []lint{{"file threshold", 500_000, 600_000}, {"output warning", 10_000, 200_000}, {"output limit", 25_000, 200_000}}},
		{"with an image", toollist.Answer{Chars: 60_000, Bytes: 60_000, Tokens: 20_000, Images: 1}, nil, []lint{{"output warning", 10_000, 20_000}}},
		{"an error", toollist.Answer{Chars: 12_000, Bytes: 12_000, Tokens: 4_000, IsError: true}, nil, []lint{{"error cut", 11_000, 12_000}}},
		{"a long error", toollist.Answer{Chars: 90_000, Bytes: 90_000, Tokens: 30_000, IsError: true}, nil, []lint{{"output warning", 10_000, 30_000}, {"output limit", 25_000, 30_000}, {"error cut", 11_000, 90_000}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []lint
			for _, l := range toollist.CheckAnswer(tc.a, tc.meta) {
				got = append(got, lint{l.Limit.Name, l.Max, l.Read})
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("CheckAnswer (-want +got):\n%s", d)
			}
		})
	}
}

func TestToolMeta(t *testing.T) {
	list := `{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"a","_meta":{"anthropic/maxResultSizeChars":200000,"other":1}},{"name":"b"},{"name":"c","_meta":{"anthropic/maxResultSizeChars":"x"}}]}}`
	got := toollist.ToolMeta([]byte(list))
	want := map[string]map[string]int64{"a": {"anthropic/maxResultSizeChars": 200_000}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("ToolMeta (-want +got):\n%s", d)
	}
}

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
