package ledger

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"testing"
)

// answer4K returns a realistic answer of about 4 KB: a post's JSON with
// database times that drop trailing zeros and a full receipt whose
// canonical field holds more of them.
func answer4K() []byte {
	canonical := `{"post_id":"p_01HZX3","space":"first-task-http","kind":"result","created_at":"2026-10-02T07:57:40.1+00:00","task":{"number":1,"done_at":"2026-10-02T07:57:41.25+00:00"}}`
	var b bytes.Buffer
	b.WriteString(`{"post_id":"p_01HZX3K6Q0M3W9V7T2R8S5N4","space":"first-task-http","kind":"result","title":"First line transcribed",`)
	b.WriteString(`"created_at":"2026-10-02T07:57:40.1+00:00","updated_at":"2026-10-02T07:57:40+00:00","items":[`)
	for i := 0; b.Len() < 3600; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"seq":%d,"kind":"note","author":"k_7f3a9c2e","at":"2026-10-02T07:%02d:%02d.%d+00:00","body":"A line of text the agent reads, with a link /v1/posts/p_%06d."}`, i, i%60, (i*7)%60, i%1000, i)
	}
	fmt.Fprintf(&b, `],"receipt":{"canonical":"%s","signature":"%s","signer_key_id":"sk_1"}}`,
		base64.RawURLEncoding.EncodeToString([]byte(canonical)), bytes.Repeat([]byte("a"), 128))
	return b.Bytes()
}

// BenchmarkAdd measures what the ledger adds to one step: decoding,
// normalising and counting a 4 KB answer with times and a receipt.
func BenchmarkAdd(b *testing.B) {
	body := answer4K()
	l := New("bench", FullWidthTimes())
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		l.parts = l.parts[:0]
		l.Add("the answer", body)
	}
}

// BenchmarkAddNothingToPad is BenchmarkAdd on an answer already at full
// width: the cost of looking.
func BenchmarkAddNothingToPad(b *testing.B) {
	body := New("", FullWidthTimes()).Normalize(answer4K())
	l := New("bench", FullWidthTimes())
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		l.parts = l.parts[:0]
		l.Add("the answer", body)
	}
}

// BenchmarkAddRegex is BenchmarkAdd with a user's regex rewrite after the
// time rule.
func BenchmarkAddRegex(b *testing.B) {
	body := answer4K()
	re, err := Regex(`"signature":"[^"]*"`, `"signature":""`)
	if err != nil {
		b.Fatal(err)
	}
	l := New("bench", FullWidthTimes(), re)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		l.parts = l.parts[:0]
		l.Add("the answer", body)
	}
}

func TestAnswer4KIsRealistic(t *testing.T) {
	body := answer4K()
	if len(body) < 3800 || len(body) > 4400 {
		t.Errorf("answer is %d bytes, want about 4 KB", len(body))
	}
	if got := New("", FullWidthTimes()).Normalize(body); len(got) <= len(body) {
		t.Error("the answer has nothing to pad")
	}
}
