// Package benchcap generates the tools/list captures the benchmarks read:
//
//	data, err := benchcap.Generate(10000, 24, 1)
//
// a JSON-RPC response with n tools shaped like a real service's (a
// paragraph of description, an input schema with described fields, enums,
// `$schema`, `maximum: 9007199254740991`, an output schema with no
// property on every third tool), about 1 KB of wire per tool at 24 words,
// deterministic for given arguments. bench/gencapture writes one to a
// file; toollist's benchmarks read the same.
package benchcap

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
)

var vocabulary = strings.Fields(`the a space task post read write mailbox peer agent token
	dossier finding oracle seek join link invite role version document standing
	returns lists creates marks done next open closed pending owner member
	category fingerprint reference receipt canonical signature budget limit
	after before since until cursor page each every one all none first last
	café naïve résumé — “quoted” <b>&amp;</b> 😀`)

type property struct {
	Type        string   `json:"type"`
	Description string   `json:"description,omitempty"`
	Enum        []string `json:"enum,omitempty"`
	Minimum     *int64   `json:"minimum,omitempty"`
	Maximum     *int64   `json:"maximum,omitempty"`
	MaxLength   int      `json:"maxLength,omitempty"`
}

type schema struct {
	Schema               string       `json:"$schema"`
	Type                 string       `json:"type"`
	Properties           orderedProps `json:"properties"`
	Required             []string     `json:"required,omitempty"`
	AdditionalProperties bool         `json:"additionalProperties"`
}

type tool struct {
	Name         string          `json:"name"`
	Title        string          `json:"title"`
	Description  string          `json:"description"`
	InputSchema  schema          `json:"inputSchema"`
	OutputSchema *schema         `json:"outputSchema,omitempty"`
	Annotations  map[string]bool `json:"annotations"`
}

// orderedProps writes properties in the order they were added.
type orderedProps struct {
	names []string
	props []property
}

func (o orderedProps) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, name := range o.names {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := marshal(name)
		v, err := marshal(o.props[i])
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// Generate returns a capture of n tools whose descriptions hold words
// words each, the same for the same n, words and seed.
func Generate(n, words int, seed uint64) ([]byte, error) {
	r := rand.New(rand.NewPCG(seed, 0x6d656173757265))
	sentence := func(k int) string {
		w := make([]string, k)
		for i := range w {
			w[i] = vocabulary[r.IntN(len(vocabulary))]
		}
		s := strings.Join(w, " ")
		return strings.ToUpper(s[:1]) + s[1:] + "."
	}
	maxSafe := int64(9007199254740991)
	one := int64(1)
	tools := make([]tool, n)
	for i := range tools {
		var props orderedProps
		fields := 3 + r.IntN(5)
		var required []string
		for j := range fields {
			name := fmt.Sprintf("%s_%d", vocabulary[r.IntN(20)], j)
			p := property{Type: "string", Description: sentence(4 + r.IntN(8))}
			switch r.IntN(4) {
			case 0:
				p.Type, p.Minimum, p.Maximum = "integer", &one, &maxSafe
			case 1:
				p.Enum = []string{"next", "open", "done", "all"}
			case 2:
				p.MaxLength = 200 + r.IntN(4000)
			}
			props.names = append(props.names, name)
			props.props = append(props.props, p)
			if j%2 == 0 {
				required = append(required, name)
			}
		}
		t := tool{
			Name:        fmt.Sprintf("service_tool_%05d", i),
			Title:       fmt.Sprintf("Tool %d", i),
			Description: sentence(words/3) + " " + sentence(words/3) + " " + sentence(words-2*(words/3)),
			InputSchema: schema{Schema: "http://json-schema.org/draft-07/schema#", Type: "object",
				Properties: props, Required: required},
			Annotations: map[string]bool{"readOnlyHint": i%3 == 0, "openWorldHint": false},
		}
		if i%3 == 1 {
			t.OutputSchema = &schema{Schema: "http://json-schema.org/draft-07/schema#", Type: "object"}
		}
		tools[i] = t
	}
	type result struct {
		Tools []tool `json:"tools"`
	}
	type response struct {
		JSONRPC string `json:"jsonrpc"`
		ID      int    `json:"id"`
		Result  result `json:"result"`
	}
	data, err := marshal(response{JSONRPC: "2.0", ID: 2, Result: result{Tools: tools}})
	if err != nil {
		return nil, err
	}
	return append(data, '\n'), nil
}
