package ghactions_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/readmeter/readmeter/internal/ghactions"
)

func TestAnnotation(t *testing.T) {
	for _, tc := range []struct {
		a    ghactions.Annotation
		want string
	}{
		{ghactions.Annotation{Level: ghactions.Error, File: "src/b.ts", Line: 4, Title: "A.b", Message: "over by 13"}, "::error file=src/b.ts,line=4,title=A.b::over by 13"},
		{ghactions.Annotation{Level: ghactions.Warning, Message: "50% of it\r\nand more"}, "::warning::50%25 of it\\r%0Aand more"},
		{ghactions.Annotation{Level: ghactions.Notice, File: "a,b:c.json", Title: "t: x, y"}, "::notice file=a%2Cb%3Ac.json,title=t%3A x%2C y::"},
		{ghactions.Annotation{Level: ghactions.Error, Line: 3, Message: "no file, no line"}, "::error::no file, no line"},
	} {
		if got := tc.a.String(); got != tc.want {
			t.Errorf("%+v:\n got %s\nwant %s", tc.a, got, tc.want)
		}
	}
}

// TestHostileAnnotation holds titles, files and messages a server or a
// file controls to one workflow command each: escaped for a terminal,
// then encoded as the runner decodes them; nothing in them ends the
// command or starts another.
func TestHostileAnnotation(t *testing.T) {
	for _, tc := range []struct {
		a    ghactions.Annotation
		want string
	}{
		{ghactions.Annotation{Level: ghactions.Error, Title: "walk x failed", Message: "answer body: x\n::error file=x::forged\n  ::warning::too"},
			"::error title=walk x failed::answer body: x%0A\\x3a:error file=x::forged%0A  \\x3a:warning::too"},
		{ghactions.Annotation{Level: ghactions.Error, Message: "::error::forged"}, "::error::\\x3a:error::forged"},
		{ghactions.Annotation{Level: ghactions.Error, File: "a\nb::c", Line: 2, Title: "t\r\n::error::x,y", Message: "m"},
			"::error file=a\\nb%3A%3Ac,line=2,title=t\\r\\n%3A%3Aerror%3A%3Ax%2Cy::m"},
		{ghactions.Annotation{Level: ghactions.Warning, Title: "\x1b[2J", Message: "\x1b[31mred\x1b[0m ok\rFAILED 100%"},
			"::warning title=\\x1b[2J::\\x1b[31mred\\x1b[0m ok\\rFAILED 100%25"},
		{ghactions.Annotation{Level: ghactions.Notice, Message: "safe\u202egnp.exe bad\xff nul\x00 ##[error]v1"},
			"::notice::safe\\u202egnp.exe bad\\xff nul\\x00 ##\\x5berror]v1"},
		{ghactions.Annotation{Level: ghactions.Error, Title: "</testcase><img src=x onerror=alert(1)>", Message: "| a | b |"},
			"::error title=</testcase><img src=x onerror=alert(1)>::| a | b |"},
	} {
		got := tc.a.String()
		if got != tc.want {
			t.Errorf("%+v:\n got %s\nwant %s", tc.a, got, tc.want)
		}
		if strings.ContainsAny(got, "\r\n\x00\x1b") || strings.Count(got, "::") < 2 {
			t.Errorf("%q: not one command", got)
		}
	}
}

func TestPathAndSummary(t *testing.T) {
	ws := t.TempDir()
	t.Setenv("GITHUB_WORKSPACE", ws)
	if got := ghactions.Path(filepath.Join(ws, "specs", "b.json")); got != "specs/b.json" {
		t.Errorf("Path inside the workspace: %s", got)
	}
	if got := ghactions.Path("/elsewhere/b.json"); got != "/elsewhere/b.json" {
		t.Errorf("Path outside the workspace: %s", got)
	}
	t.Setenv("GITHUB_STEP_SUMMARY", "")
	if err := ghactions.AppendSummary([]byte("x")); err != nil {
		t.Fatal(err)
	}
	sum := filepath.Join(ws, "summary.md")
	t.Setenv("GITHUB_STEP_SUMMARY", sum)
	for _, s := range []string{"one\n", "two\n"} {
		if err := ghactions.AppendSummary([]byte(s)); err != nil {
			t.Fatal(err)
		}
	}
	if got, _ := os.ReadFile(sum); string(got) != "one\ntwo\n" {
		t.Errorf("summary: %q", got)
	}
}
