package budgets

import "testing"

func TestServerAndCheckServer(t *testing.T) {
	for _, c := range []struct {
		path, data, server string
	}{
		{"twin.json", `{"$server": "twin", "A": {"a": 1}}`, "twin"},
		{"twin2.json", `{"A": {"a": 1}, "$server": "twin"}`, "twin"},
		{"other.json", `{"$server": "api.example.org", "A": {"a": 1}}`, "api.example.org"},
		{"none.json", `{"A": {"a": 1}}`, ""},
		{"nested.json", `{"A": {"a": 1, "$server": "twin"}}`, ""},
		{"escaped.json", `{"\u0024server": "tw\u0069n", "A": {"a": 1}}`, "twin"},
		{"quoted.ts", "// \"$server\": \"twin\"\nexport const A = {\n  a: 1,\n} as const;\n", ""},
		{"first-task.ts", "// $server: twin\nexport const A = {\n  a: 1,\n} as const;\n", "twin"},
		{"inner.ts", "export const A = {\n  // $server: twin\n  a: 1,\n} as const;\n", ""},
		{"block.ts", "/* $server: twin */\nexport const A = {\n  a: 1,\n} as const;\n", ""},
		{"string.ts", "const s = '// $server: twin';\nexport const A = {\n  a: 1,\n} as const;\n", ""},
	} {
		f, err := Parse(c.path, []byte(c.data))
		if err != nil {
			t.Fatalf("%s: %v", c.path, err)
		}
		if got := f.Server(); got != c.server {
			t.Errorf("%s: Server() = %q, want %q", c.path, got, c.server)
		}
		err = CheckServer(f, "api.example.org", "--server")
		if (err == nil) != (c.server == "" || c.server == "api.example.org") {
			t.Errorf("%s: CheckServer = %v", c.path, err)
		}
		if err := CheckServer(f, "", "--server"); err != nil {
			t.Errorf("%s: CheckServer of an unknown server = %v", c.path, err)
		}
	}
}
