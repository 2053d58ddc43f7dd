package toollist

import (
	"math"
	"testing"
)

func TestFitLine(t *testing.T) {
	// On a line, the fit is the line and every held-out error is 0.
	f, err := FitLine("claude-api", "bytes", []Point{{"a", 100, 380}, {"b", 400, 470}, {"c", 1000, 650}})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(f.Slope-0.3) > 1e-9 || math.Abs(f.Intercept-350) > 1e-9 || f.HeldOutErrorPct > 1e-9 {
		t.Errorf("fit %+v, want slope 0.3, intercept 350, no error", f)
	}
	// Off the line: c held out is predicted from a and b alone.
	f, err = FitLine("claude-api", "bytes", []Point{{"a", 0, 100}, {"b", 10, 200}, {"c", 20, 250}})
	if err != nil {
		t.Fatal(err)
	}
	if want := 300.0; math.Abs(f.HeldOut[2]-want) > 1e-9 {
		t.Errorf("c held out: %v, want %v", f.HeldOut[2], want)
	}
	if want := 50.0 / 250 * 100; math.Abs(f.MaxErrorPct-want) > 1e-9 && f.MaxErrorPct < want {
		t.Errorf("max error %v, want at least %v", f.MaxErrorPct, want)
	}
	if _, err := FitLine("x", "bytes", []Point{{"a", 1, 1}, {"b", 2, 2}}); err == nil {
		t.Error("two captures fitted")
	}
	if _, err := FitLine("x", "bytes", []Point{{"a", 1, 1}, {"b", 1, 2}, {"c", 1, 3}}); err == nil {
		t.Error("one X fitted")
	}
}
