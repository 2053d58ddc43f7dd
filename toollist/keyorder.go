package toollist

import "github.com/readmeter/readmeter/jsonjs"

// sdkSchemaKeys are the keys the MCP TypeScript SDK's ToolSchema declares
// for a tool's inputSchema and outputSchema, in its order: parsing puts
// them first, then every other key in the order it came.
var sdkSchemaKeys = []string{"type", "properties", "required"}

// SDKKeyOrder returns the transform that puts the root keys of each
// tool's inputSchema and outputSchema in the order a client built on the
// MCP TypeScript SDK hands them on: Client.listTools parses the list with
// the SDK's zod schema, whose parse writes the keys it declares ("type",
// "properties", "required") first and the others after them, each in the
// order it came; nothing deeper moves. The bytes are the same; a real
// tokenizer counts them differently.
func SDKKeyOrder() Transform { return sdkKeyOrder{} }

type sdkKeyOrder struct{}

func (sdkKeyOrder) Name() string  { return "sdk_key_order" }
func (sdkKeyOrder) finish() error { return nil }

func (sdkKeyOrder) apply(tool jsonjs.Value, _ string) (jsonjs.Value, int, error) {
	total := 0
	for _, key := range []string{"inputSchema", "outputSchema"} {
		s, ok := tool.Get(key)
		if !ok || s.Kind() != jsonjs.Object {
			continue
		}
		if ns, moved := sdkOrder(s); moved {
			tool = setMember(tool, key, ns)
			total++
		}
	}
	return tool, total, nil
}

// sdkOrder returns the object o with the SDK's keys first, and whether
// that moved any.
func sdkOrder(o jsonjs.Value) (jsonjs.Value, bool) {
	ms := o.Members()
	out := make([]jsonjs.Member, 0, len(ms))
	for _, k := range sdkSchemaKeys {
		// a key given twice: JSON.parse keeps the last value, at the first place
		if v, ok := o.Get(k); ok {
			out = append(out, jsonjs.Member{Key: k, Value: v})
		}
	}
	seen := map[string]bool{}
	for _, m := range ms {
		if !seen[m.Key] && !isSDKKey(m.Key) {
			out = append(out, m)
		}
		seen[m.Key] = true
	}
	moved := len(out) != len(ms)
	for i := range out {
		if moved || out[i].Key != ms[i].Key {
			return jsonjs.ObjectValue(out), true
		}
	}
	return o, false
}

func isSDKKey(k string) bool {
	for _, s := range sdkSchemaKeys {
		if k == s {
			return true
		}
	}
	return false
}
