package ledger

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// fullWidthJS is the reference file's rule written in JavaScript, the
// language the service counts in: times padded in the text, then inside
// each "canonical" field, each text decoded and encoded by Node.
const fullWidthJS = `
const time = /(T\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?([+-]\d{2}:\d{2})/g;
const pad = (s) => s.replace(time, (_, hms, frac, off) => hms + "." + (frac || "").padEnd(6, "0") + off);
const wide = (s) => pad(s).replace(/"canonical":"([A-Za-z0-9_-]+)"/g,
  (_, v) => '"canonical":"' + Buffer.from(pad(Buffer.from(v, "base64url").toString("utf8")), "utf8").toString("base64url") + '"');
let input = "";
process.stdin.on("data", (d) => (input += d));
process.stdin.on("end", () => {
  const out = JSON.parse(input).map((b) => Buffer.from(wide(Buffer.from(b, "base64").toString("utf8")), "utf8").toString("base64"));
  process.stdout.write(JSON.stringify(out));
});
`

func randomTime(r *rand.Rand) string {
	var b strings.Builder
	fmt.Fprintf(&b, "2026-10-%02dT%02d:%02d:%02d", r.IntN(28)+1, r.IntN(24), r.IntN(60), r.IntN(60))
	if n := r.IntN(9); n > 0 {
		b.WriteByte('.')
		for range n - 1 {
			b.WriteByte(byte('0' + r.IntN(10)))
		}
	}
	switch r.IntN(5) {
	case 0:
		b.WriteByte('Z')
	case 1:
		b.WriteString("-05:30")
	case 2:
		b.WriteString("+00:0") // cut short
	default:
		b.WriteString("+00:00")
	}
	return b.String()
}

func randomAnswer(r *rand.Rand, depth int) []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	for i := range r.IntN(6) + 1 {
		if i > 0 {
			b.WriteByte(',')
		}
		switch r.IntN(7) {
		case 0, 1:
			fmt.Fprintf(&b, `"at%d":"%s"`, i, randomTime(r))
		case 2:
			if depth < 2 {
				inner := randomAnswer(r, depth+1)
				enc := base64.RawURLEncoding.EncodeToString(inner)
				if r.IntN(4) == 0 && len(enc) > 2 {
					enc = enc[:len(enc)-1] // lengths Node decodes leniently
				}
				fmt.Fprintf(&b, `"canonical":"%s"`, enc)
			}
		case 3:
			b.WriteString(`"bad":"` + string([]byte{0xe2, 0x82, 'x', 0xff, 0xf0, 0x9f}) + `"`)
		case 4:
			b.WriteString(`"text":"Tea at T12:00:00 sharp, T1:2:3+00:00, é, 𝄞"`)
		default:
			fmt.Fprintf(&b, `"n":%d`, r.IntN(1000))
		}
	}
	b.WriteByte('}')
	return b.Bytes()
}

// TestFullWidthAgainstNode checks Ledger.Normalize with FullWidthTimes
// against the rule run by Node, on generated answers.
func TestFullWidthAgainstNode(t *testing.T) {
	node := os.Getenv("NODE")
	if node == "" {
		node = "node"
	}
	r := rand.New(rand.NewPCG(7, 11))
	var inputs [][]byte
	for range 400 {
		inputs = append(inputs, randomAnswer(r, 0))
	}
	inputs = append(inputs,
		[]byte("2026-10-02T07:57:40.1+00:00"),
		[]byte(`"canonical":"`+base64.RawURLEncoding.EncodeToString([]byte{'T', '0', 0xff})+`"`),
	)
	enc := make([]string, len(inputs))
	for i, in := range inputs {
		enc[i] = base64.StdEncoding.EncodeToString(in)
	}
	req, _ := json.Marshal(enc)
	cmd := exec.Command(node, "-e", fullWidthJS)
	cmd.Stdin = bytes.NewReader(req)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.Bytes())
	}
	var answers []string
	if err := json.Unmarshal(out, &answers); err != nil || len(answers) != len(inputs) {
		t.Fatalf("node answered %d of %d: %v", len(answers), len(inputs), err)
	}
	l := New("oracle", FullWidthTimes())
	changed := 0
	for i, in := range inputs {
		want, _ := base64.StdEncoding.DecodeString(answers[i])
		got := l.Normalize(in)
		if !bytes.Equal(got, want) {
			t.Errorf("input %q:\n got %q\nnode %q", in, got, want)
		}
		if !bytes.Equal(got, in) {
			changed++
		}
	}
	if changed < len(inputs)/4 {
		t.Errorf("only %d of %d inputs changed: the generator misses the rule", changed, len(inputs))
	}
}
