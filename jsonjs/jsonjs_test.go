package jsonjs

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func TestFormatNumber(t *testing.T) {
	for _, tc := range []struct {
		f    float64
		want string
	}{
		{0, "0"}, {math.Copysign(0, -1), "0"}, {1, "1"}, {-1, "-1"}, {1.5, "1.5"},
		{1e21, "1e+21"}, {1e20, "100000000000000000000"}, {1e-7, "1e-7"}, {1e-6, "0.000001"},
		{123e-20, "1.23e-18"}, {0.1, "0.1"}, {5e-324, "5e-324"}, {1.7976931348623157e308, "1.7976931348623157e+308"},
		{9007199254740993, "9007199254740992"}, {1 << 60, "1152921504606847000"}, {2.5e-8, "2.5e-8"},
		{123456789012345678901234567890, "1.2345678901234568e+29"}, {-1.5e300, "-1.5e+300"}, {0.000123, "0.000123"},
		{math.Inf(1), "Infinity"}, {math.NaN(), "NaN"},
	} {
		if got := FormatNumber(tc.f); got != tc.want {
			t.Errorf("FormatNumber(%v) = %q, want %q", tc.f, got, tc.want)
		}
	}
}

func TestRoundTrip(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"b":1,"a":2,"1":3,"0":4}`, `{"0":4,"1":3,"b":1,"a":2}`},
		{`{"a":1,"b":2,"a":3}`, `{"a":3,"b":2}`},
		{`{"01":1,"4294967295":2,"4294967294":3,"-1":4,"10":5,"2":6}`, `{"2":6,"10":5,"4294967294":3,"01":1,"4294967295":2,"-1":4}`},
		{`"\u00e9\/<>&\u2028"`, "\"\u00e9/<>&\u2028\""},
		{`"\ud800x\udfff"`, `"\ud800x\udfff"`},
		{`"\ud83d\ude00"`, "\"\U0001F600\""},
		{`"\ude00\ud83d"`, `"\ude00\ud83d"`},
		{`"\u0001\u001f\b\f\n\r\t\"\\\u007f"`, "\"\\u0001\\u001f\\b\\f\\n\\r\\t\\\"\\\\\x7f\""},
		{`[1.0, -0, 1e400, -1e400, 1E+2, 0.5e-6]`, `[1,0,null,null,100,5e-7]`},
		{` {"__proto__": null, "": [] } `, `{"__proto__":null,"":[]}`},
	} {
		v, err := Parse([]byte(tc.in))
		if err != nil {
			t.Errorf("Parse(%s): %v", tc.in, err)
			continue
		}
		if got := string(Stringify(v)); got != tc.want {
			t.Errorf("Stringify(Parse(%s)) = %s, want %s", tc.in, got, tc.want)
		}
		if n := StringifyLen(v); n != len(tc.want) {
			t.Errorf("StringifyLen(%s) = %d, want %d", tc.in, n, len(tc.want))
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		in        string
		line, col int
	}{
		{``, 1, 1}, {"\ufeff{}", 1, 1}, {`{"a":1,}`, 1, 8}, {"{\n  \"a\" 1}", 2, 7}, {`[01]`, 1, 3},
		{`"a` + "\n" + `"`, 1, 3}, {`"\x"`, 1, 3}, {`[1,]`, 1, 4}, {`nul`, 1, 4}, {`{} x`, 1, 4},
		{"\u00a0[]", 1, 1}, {`"\ud8"`, 1, 6}, {`1.`, 1, 3}, {`-`, 1, 2}, {`.5`, 1, 1},
	} {
		_, err := Parse([]byte(tc.in))
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("Parse(%q) = %v, want a SyntaxError", tc.in, err)
			continue
		}
		if se.Line != tc.line || se.Column != tc.col {
			t.Errorf("Parse(%q): at %d:%d (%s), want %d:%d", tc.in, se.Line, se.Column, se.Msg, tc.line, tc.col)
		}
		if verr := Validate([]byte(tc.in)); verr == nil || verr.Error() != err.Error() {
			t.Errorf("Validate(%q) = %v, want %v", tc.in, verr, err)
		}
	}
}

func TestDecode(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		n        int
	}{
		{"abc", "abc", 0},
		{"a\xffb", "a\ufffdb", 1},
		{"\xe2\x82A", "\ufffdA", 1},               // truncated three-byte sequence: one replacement
		{"\xed\xa0\x80", "\ufffd\ufffd\ufffd", 3}, // a surrogate's bytes
		{"\xc0\x80", "\ufffd\ufffd", 2},           // overlong
		{"\xf0\x9f\x98", "\ufffd", 1},             // truncated at the end
		{"\xf4\x90\x80\x80", "\ufffd\ufffd\ufffd\ufffd", 4},
		{"\xe0\xa0\x80", "\u0800", 0},
	} {
		got, n := Decode([]byte(tc.in))
		if string(got) != tc.want || n != tc.n {
			t.Errorf("Decode(%q) = %q, %d; want %q, %d", tc.in, got, n, tc.want, tc.n)
		}
	}
}

func TestLen16(t *testing.T) {
	v, err := Parse([]byte(`"a\u00e9\u20ac\ud83d\ude00\ud800"`))
	if err != nil {
		t.Fatal(err)
	}
	if got := Len16(v.Str()); got != 6 {
		t.Errorf("Len16 = %d, want 6", got)
	}
	if got := ByteLen(v.Str()); got != 1+2+3+4+3 {
		t.Errorf("ByteLen = %d, want 13", got)
	}
}

func TestRaw(t *testing.T) {
	ms, err := RawMembers([]byte(` {"a": [1, 2], "b\n": {"c":"}"}, "a": 3 } `))
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 3 || ms[0].Key != "a" || string(ms[0].Value) != "[1, 2]" || ms[1].Key != "b\n" || string(ms[1].Value) != `{"c":"}"}` || string(ms[2].Value) != "3" {
		t.Fatalf("RawMembers = %+v", ms)
	}
	es, err := RawElems([]byte(`[ {"x":1} , "y" ]`))
	if err != nil || len(es) != 2 || string(es[0]) != `{"x":1}` || string(es[1]) != `"y"` {
		t.Fatalf("RawElems = %q, %v", es, err)
	}
	if _, err := RawMembers([]byte(`{"a":1} x`)); err == nil {
		t.Fatal("RawMembers accepted trailing text")
	}
}

func TestStringifyLenText(t *testing.T) {
	for _, in := range []string{
		`{"b":1,"a":2,"1":3,"0":4}`, `{"a":1,"b":2,"a":3}`, `{"a\u0062":1,"ab":2}`,
		`"\u00e9\/<>&\u2028"`, `"\ud800x\udfff"`, `"\ud83d\ude00"`, `"\ude00\ud83d"`, `"\ud83d\ud83d\ude00"`,
		`"\u0001\u001f\b\f\n\r\t\"\\\u007f\u0022\u005c\u000a"`, `[1.0, -0, 1e400, -1e400, 1E+2, 0.5e-6, 123456789012345, 1234567890123456, -0.0]`, `[00]`,
		` {"__proto__": null, "": [] , "x": {"y": [true, false, null, {}]}} `, string(benchText(3)), `-12`, `0`, `-0`,
	} {
		v, perr := Parse([]byte(in))
		n, err := StringifyLenText([]byte(in))
		if (perr != nil) != (err != nil) {
			t.Errorf("StringifyLenText(%s): error %v, Parse error %v", in, err, perr)
			continue
		}
		if perr == nil && n != len(Stringify(v)) {
			t.Errorf("StringifyLenText(%s) = %d, want %d", in, n, len(Stringify(v)))
		}
	}
}

func BenchmarkStringifyLenText(b *testing.B) {
	text := benchText(40)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if _, err := StringifyLenText(text); err != nil {
			b.Fatal(err)
		}
	}
}

func TestStringEnd(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{
		{`"" x`, 2}, {`"abc"`, 5}, {`"a\"b" x`, 6}, {`"\\" x`, 4}, {`"0123456789abcdef\\\"ghij"`, 26},
		{`"0123456789abcdefghijklmnopqrstuv"`, 34}, {`"unterminated`, 13}, {`"ends in \`, 10},
	} {
		if got := StringEnd([]byte(tc.in), 0); got != tc.want {
			t.Errorf("StringEnd(%q) = %d, want %d", tc.in, got, tc.want)
		}
	}
}

// TestValueAccessors reads each kind back from a parsed document.
func TestValueAccessors(t *testing.T) {
	v, err := Parse([]byte(`{"n":null,"t":true,"f":false,"x":1.5,"s":"é","a":[1],"o":{}}`))
	if err != nil {
		t.Fatal(err)
	}
	get := func(k string) Value {
		m, ok := v.Get(k)
		if !ok {
			t.Fatalf("no member %s", k)
		}
		return m
	}
	if get("n").Kind() != Null || get("t").Kind() == Null {
		t.Error("Kind of null")
	}
	if !get("t").Bool() || get("f").Bool() || get("x").Bool() || get("t").Kind() != Bool {
		t.Error("Bool")
	}
	if get("x").Num() != 1.5 || get("s").Str() != "é" || len(get("a").Elems()) != 1 || len(get("o").Members()) != 0 {
		t.Error("Num, Str, Elems, Members")
	}
	if _, ok := v.Get("nope"); ok {
		t.Error("Get of a missing member")
	}
}

// TestStringifyLenStrings holds StringifyLen of a string to the length
// AppendQuote writes, for strings long and short with each character
// JSON.stringify escapes, and lone surrogates, at every place.
func TestStringifyLenStrings(t *testing.T) {
	specials := []string{`"`, `\`, "\b", "\f", "\n", "\r", "\t", "\x00", "\x1f", "\x7f", "é", "\xed\xa0\x80", "\xed\x9f\xbf", "\u2028", "€"}
	for _, n := range []int{0, 1, 15, 16, 17, 31, 32, 33, 100} {
		for _, sp := range specials {
			for at := 0; at <= n; at += max(1, n/7) {
				s := strings.Repeat("a", at) + sp + strings.Repeat("b", n-at)
				for _, v := range []string{s, s + sp, sp + s} {
					if got, want := StringifyLen(StringValue(v)), len(AppendQuote(nil, v)); got != want {
						t.Errorf("StringifyLen(%q) = %d, want %d", v, got, want)
					}
				}
			}
		}
	}
}
