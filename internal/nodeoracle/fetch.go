package nodeoracle

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"testing"
)

// FetchRequest is one request Fetch makes with Node's fetch.
type FetchRequest struct {
	URL     string            `json:"url"`
	Method  string            `json:"method,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	Body    string            `json:"body,omitempty"`
}

// FetchResult is what Node's fetch read: the text of the answer as UTF-8
// (Buffer.from(await res.text())), its byte length, or the error it threw.
type FetchResult struct {
	Status int    `json:"status"`
	Text   []byte `json:"text"`
	Bytes  int64  `json:"bytes"`
	Err    string `json:"error"`
}

const fetchJS = `
const reqs = JSON.parse(process.argv[1]);
(async () => {
  const out = [];
  for (const r of reqs) {
    try {
      const res = await fetch(r.url, {method: r.method || 'GET', headers: r.headers || {}, body: r.body || undefined});
      const t = await res.text();
      out.push({status: res.status, text: Buffer.from(t).toString('base64'), bytes: Buffer.byteLength(t)});
    } catch (e) {
      out.push({error: String((e && e.cause) || e)});
    }
  }
  process.stdout.write(JSON.stringify(out));
})();
`

// Fetch asks Node's fetch for each request, one after the other, and
// returns what await res.text() gave. It fails the test when Node cannot
// be run; a request that throws has Err set.
func Fetch(t testing.TB, reqs ...FetchRequest) []FetchResult {
	t.Helper()
	node, err := NodePath()
	if err != nil {
		t.Fatal(err)
	}
	arg, _ := json.Marshal(reqs)
	out, err := exec.Command(node, "-e", fetchJS, string(arg)).Output()
	if err != nil {
		t.Fatalf("nodeoracle: node fetch: %v", errText(err))
	}
	var res []FetchResult
	if err := json.Unmarshal(out, &res); err != nil || len(res) != len(reqs) {
		t.Fatalf("nodeoracle: node fetch answered %q (%v)", out, err)
	}
	return res
}

func errText(err error) string {
	if ee, ok := err.(*exec.ExitError); ok {
		return fmt.Sprintf("%v: %s", err, ee.Stderr)
	}
	return err.Error()
}
