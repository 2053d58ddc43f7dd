package benchcap

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
)

// GenerateDefs returns a capture of n tools whose input schemas carry
// what the finders cut, the way generated servers ship it: every tool
// holds the same root $defs (nine definitions, of which it references
// two or three, one through another), and its properties repeat an
// inlined object schema two to four times. About 1.5 KB of wire per tool;
// the same for the same n and seed.
func GenerateDefs(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 0x64656673))
	word := func() string { return vocabulary[r.IntN(28)] }
	sentence := func(k int) string {
		w := make([]string, k)
		for i := range w {
			w[i] = word()
		}
		return strconv.Quote(strings.ToUpper(w[0][:1]) + strings.Join(w, " ")[1:] + ".")
	}
	var defs []string
	for d := range 9 {
		switch d % 3 {
		case 0:
			defs = append(defs, fmt.Sprintf(`"def%d":{"type":"object","properties":{"id":{"type":"string","description":%s},"kind":{"type":"string","enum":["page","block","user"]}},"required":["id"]}`, d, sentence(8)))
		case 1:
			defs = append(defs, fmt.Sprintf(`"def%d":{"type":"array","items":{"$ref":"#/$defs/def%d"},"description":%s}`, d, d-1, sentence(6)))
		default:
			defs = append(defs, fmt.Sprintf(`"def%d":{"anyOf":[{"type":"string","maxLength":2000},{"type":"null"}],"description":%s}`, d, sentence(5)))
		}
	}
	shared := `"$defs":{` + strings.Join(defs, ",") + `}`
	var b strings.Builder
	b.WriteString(`{"jsonrpc":"2.0","id":2,"result":{"tools":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		repeated := fmt.Sprintf(`{"type":"object","properties":{"start":{"type":"string","format":"date-time"},"end":{"type":"string","format":"date-time"},"zone":{"type":"string","description":%s}},"required":["start"]}`, sentence(4))
		var props []string
		for k := range 2 + r.IntN(3) {
			props = append(props, fmt.Sprintf(`"range_%d":%s`, k, repeated))
		}
		for k := range 2 + r.IntN(2) {
			props = append(props, fmt.Sprintf(`"ref_%d":{"$ref":"#/$defs/def%d"}`, k, r.IntN(9)))
		}
		props = append(props, fmt.Sprintf(`"query":{"type":"string","description":%s}`, sentence(6+r.IntN(6))))
		fmt.Fprintf(&b, `{"name":"gen_tool_%05d","description":%s,"inputSchema":{"type":"object","properties":{%s},"required":["query"],%s}}`,
			i, sentence(16), strings.Join(props, ","), shared)
	}
	b.WriteString("]}}\n")
	return []byte(b.String())
}
