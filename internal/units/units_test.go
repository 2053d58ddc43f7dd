package units

import "testing"

func TestGroup(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		want string
	}{
		{0, "0"}, {7, "7"}, {999, "999"}, {1000, "1,000"}, {23324, "23,324"},
		{1234567, "1,234,567"}, {-1234, "-1,234"}, {-999, "-999"}, {100000, "100,000"},
	} {
		if got := Group(tc.n); got != tc.want {
			t.Errorf("Group(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}

func TestDelta(t *testing.T) {
	for _, tc := range []struct {
		old, new int64
		want     string
	}{
		{0, 5, "?"}, {100, 100, "+0.00%"}, {100, 150, "+50.00%"}, {3, 2, "-33.33%"},
	} {
		if got := Delta(tc.old, tc.new); got != tc.want {
			t.Errorf("Delta(%d, %d) = %q, want %q", tc.old, tc.new, got, tc.want)
		}
	}
}

func TestTokens(t *testing.T) {
	for _, tc := range []struct{ b, want int64 }{{0, 0}, {2, 0}, {3, 1}, {35955, 11985}, {33485, 11161}} {
		if got := Tokens(tc.b); got != tc.want {
			t.Errorf("Tokens(%d) = %d, want %d", tc.b, got, tc.want)
		}
	}
}

func TestSigned(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		want string
	}{{0, "0"}, {5, "+5"}, {-5, "-5"}, {1234, "+1,234"}, {-1234, "-1,234"}} {
		if got := Signed(tc.n); got != tc.want {
			t.Errorf("Signed(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}

func TestLabel(t *testing.T) {
	for unit, want := range map[string]string{"tokens": "tokens (bytes/3)", "bytes": "bytes", "o200k tokens": "o200k tokens", "calls": "calls"} {
		if got := Label(unit); got != want {
			t.Errorf("Label(%q) = %q, want %q", unit, got, want)
		}
	}
}
