package budgets

import "testing"

func TestServerAndGuardTwin(t *testing.T) {
	for _, c := range []struct {
		path, data, server string
	}{
		{"twin.json", `{"$server": "twin", "A": {"a": 1}}`, "twin"},
		{"twin2.json", `{"A": {"a": 1}, "$server": "twin"}`, "twin"},
		{"other.json", `{"$server": "api.example.org", "A": {"a": 1}}`, "api.example.org"},
		{"none.json", `{"A": {"a": 1}}`, ""},
		{"nested.json", `{"A": {"a": 1, "$server": "twin"}}`, ""},
		{"number.json", `{"$server": 1, "A": {"a": 1}}`, ""},
		{"escaped.json", `{"\u0024server": "tw\u0069n", "A": {"a": 1}}`, "twin"},
		{"first-task.ts", "// \"$server\": \"twin\"\nexport const A = {\n  a: 1,\n} as const;\n", ""},
	} {
		f, err := Parse(c.path, []byte(c.data))
		if err != nil {
			t.Fatalf("%s: %v", c.path, err)
		}
		if got := f.Server(); got != c.server {
			t.Errorf("%s: Server() = %q, want %q", c.path, got, c.server)
		}
		err = GuardTwin(f, "walks run: --update without --url")
		if (err == nil) != (c.server == TwinServer) {
			t.Errorf("%s: GuardTwin = %v", c.path, err)
		}
	}
}
