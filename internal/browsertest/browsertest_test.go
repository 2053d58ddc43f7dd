package browsertest_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/readmeter/readmeter/internal/browsertest"
)

// TestSeesErrorsAndRequests holds the harness to what it must catch: a
// console error, an exception and a request to the network.
func TestSeesErrorsAndRequests(t *testing.T) {
	page := filepath.Join(t.TempDir(), "bad.html")
	html := `<!DOCTYPE html><html><head><meta charset="utf-8"></head><body><script>
console.error("boom");
new Image().src = "http://127.0.0.1:9/pixel.png";
document.body.setAttribute("data-ready", "true");
setTimeout(function () { throw new Error("thrown") }, 0);
</script></body></html>`
	if err := os.WriteFile(page, []byte(html), 0o644); err != nil {
		t.Fatal(err)
	}
	p := browsertest.Open(t, page)
	if n := browsertest.Eval[int](p, `1 + 1`); n != 2 {
		t.Fatalf("1 + 1 = %d", n)
	}
	browsertest.Eval[any](p, `new Promise(function (r) { setTimeout(r, 100) })`)
	errs := strings.Join(p.Errors(), "\n")
	for _, want := range []string{"boom", "thrown"} {
		if !strings.Contains(errs, want) {
			t.Errorf("errors %q lack %q", errs, want)
		}
	}
	if r := strings.Join(p.Requests(), " "); !strings.Contains(r, "http://127.0.0.1:9/pixel.png") {
		t.Errorf("requests %q lack the image", r)
	}
}
