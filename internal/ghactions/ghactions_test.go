package ghactions_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/readmeter/readmeter/internal/ghactions"
)

func TestAnnotation(t *testing.T) {
	for _, tc := range []struct {
		a    ghactions.Annotation
		want string
	}{
		{ghactions.Annotation{Level: ghactions.Error, File: "src/b.ts", Line: 4, Title: "A.b", Message: "over by 13"}, "::error file=src/b.ts,line=4,title=A.b::over by 13"},
		{ghactions.Annotation{Level: ghactions.Warning, Message: "50% of it\r\nand more"}, "::warning::50%25 of it%0D%0Aand more"},
		{ghactions.Annotation{Level: ghactions.Notice, File: "a,b:c.json", Title: "t: x, y"}, "::notice file=a%2Cb%3Ac.json,title=t%3A x%2C y::"},
		{ghactions.Annotation{Level: ghactions.Error, Line: 3, Message: "no file, no line"}, "::error::no file, no line"},
	} {
		if got := tc.a.String(); got != tc.want {
			t.Errorf("%+v:\n got %s\nwant %s", tc.a, got, tc.want)
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
