package twin

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
)

// A JSON-RPC id is echoed exactly as it was sent. The SDK reads a numeric
// id into an int64 (18446744073709551616 would come back wrapped, 1.5 as
// 1), so a request whose id is a number reaches it with a placeholder
// string instead, unique to the request, and the answer's placeholder is
// written back as the id's own text.

// swapID returns body with its numeric id replaced by a placeholder
// string, the placeholder's JSON text, and the id's text; ok is false
// when the id is not a number (a string or null is echoed as it is).
func swapID(body []byte) (swapped, placeholder, id []byte, ok bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal(body, &m) != nil {
		return nil, nil, nil, false
	}
	raw := bytes.TrimSpace(m["id"])
	if len(raw) == 0 || raw[0] != '-' && (raw[0] < '0' || raw[0] > '9') {
		return nil, nil, nil, false
	}
	placeholder = []byte(`"twin-rpc-id-` + randHex(16) + `"`)
	m["id"] = placeholder
	swapped, err := json.Marshal(m)
	if err != nil {
		return nil, nil, nil, false
	}
	return swapped, placeholder, append([]byte(nil), raw...), true
}

// idWriter writes an answer with the placeholder of swapID put back as
// the id's text. The SDK writes each message whole, so a placeholder is
// never cut between two writes.
type idWriter struct {
	placeholder, id []byte
}

// restore returns p with the placeholder replaced.
func (w *idWriter) restore(p []byte) []byte {
	if w == nil || !bytes.Contains(p, w.placeholder) {
		return p
	}
	return bytes.ReplaceAll(p, w.placeholder, w.id)
}

// sdkParams reads the SDK's words for params it could not read
// ("handling 'tools/call': invalid params: unmarshaling ... into a
// *mcp.CallToolParamsRaw: json: cannot unmarshal ... into Go struct field
// mcp.CallToolParamsRaw.name of type string"), which name Go's types.
var (
	sdkHandling  = regexp.MustCompile(`^handling '([^']{0,100})'`)
	sdkField     = regexp.MustCompile(`Go struct field [\w.*\[\]]+?\.(\w+) of type ([\w.*\[\]]+)`)
	goInternals  = regexp.MustCompile(`Go (value|struct field)|\*?mcp\.[A-Z]|json: |unmarshaling`)
	jsonRPCError = []byte(`"error":`)
)

// plainErrors rewrites, in an answer's bytes (a JSON body, or an event
// stream's data lines), every JSON-RPC error whose message shows Go's
// types or internals: the twin's words instead, naming the field that is
// wrong in JSON's terms.
func plainErrors(p []byte) []byte {
	if !bytes.Contains(p, jsonRPCError) || !goInternals.Match(p) {
		return p
	}
	lines := bytes.Split(p, []byte("\n"))
	for i, line := range lines {
		prefix, text := []byte(nil), line
		if rest, ok := bytes.CutPrefix(line, []byte("data: ")); ok {
			prefix, text = []byte("data: "), rest
		}
		var m struct {
			ID    json.RawMessage `json:"id"`
			Error *struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if json.Unmarshal(text, &m) != nil || m.Error == nil || !goInternals.MatchString(m.Error.Message) {
			continue
		}
		method := "the method"
		if g := sdkHandling.FindStringSubmatch(m.Error.Message); g != nil {
			method = g[1]
		}
		detail := "params must be a JSON object of the members " + method + " takes"
		if g := sdkField.FindStringSubmatch(m.Error.Message); g != nil {
			kind := strings.TrimLeft(g[2], "*")
			switch {
			case strings.HasPrefix(kind, "[]"):
				kind = "slice"
			case strings.HasPrefix(kind, "map["), strings.Contains(kind, "."):
				kind = "struct"
			}
			detail = "params." + g[1] + " must be " + jsonKind(kind)
		}
		id := m.ID
		if len(id) == 0 {
			id = json.RawMessage("null")
		}
		msg, _ := json.Marshal("INVALID_PARAMS. The params of " + method + " do not hold. (" + detail + ") Correct them and send the request again.")
		lines[i] = append(prefix, []byte(`{"jsonrpc":"2.0","id":`+string(id)+`,"error":{"code":`+strconv.Itoa(m.Error.Code)+`,"message":`+string(msg)+`}}`)...)
	}
	return bytes.Join(lines, []byte("\n"))
}
