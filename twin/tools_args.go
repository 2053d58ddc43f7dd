package twin

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// argSchema is the part of JSON Schema the words' input schemas use, read
// to check a call's arguments before anything is done: the twin refuses
// bad arguments in its own words, as the service does, rather than
// passing them on.
type argSchema struct {
	Type                 string                `json:"type"`
	Properties           map[string]*argSchema `json:"properties"`
	Required             []string              `json:"required"`
	AdditionalProperties *bool                 `json:"additionalProperties"`
	Items                *argSchema            `json:"items"`
	Enum                 []any                 `json:"enum"`
	Minimum              *float64              `json:"minimum"`
	Maximum              *float64              `json:"maximum"`
	MaxLength            *int                  `json:"maxLength"`
	MinItems             *int                  `json:"minItems"`
	MaxItems             *int                  `json:"maxItems"`
	Pattern              string                `json:"pattern"`
}

// checkArgs decodes raw arguments and checks them against schema. It
// answers the arguments as a map, or the detail of the first thing wrong,
// naming the field.
func checkArgs(schema json.RawMessage, raw json.RawMessage) (map[string]any, string) {
	var sc argSchema
	if err := json.Unmarshal(schema, &sc); err != nil {
		return nil, "the tool's schema does not read: " + err.Error()
	}
	args := map[string]any{}
	if len(bytes.TrimSpace(raw)) > 0 && string(bytes.TrimSpace(raw)) != "null" {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, "arguments are not JSON"
		}
		m, ok := v.(map[string]any)
		if !ok {
			return nil, "arguments must be an object"
		}
		args = m
	}
	if d := checkValue(&sc, args, "arguments"); d != "" {
		return nil, d
	}
	return args, ""
}

func checkValue(sc *argSchema, v any, path string) string {
	switch sc.Type {
	case "object":
		m, ok := v.(map[string]any)
		if !ok {
			return path + " must be an object"
		}
		for _, r := range sc.Required {
			if _, ok := m[r]; !ok {
				return fieldPath(path, r) + " is required"
			}
		}
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			p, ok := sc.Properties[k]
			if !ok {
				if sc.AdditionalProperties != nil && !*sc.AdditionalProperties {
					return fieldPath(path, k) + " is not a field of this tool"
				}
				continue
			}
			if d := checkValue(p, m[k], fieldPath(path, k)); d != "" {
				return d
			}
		}
	case "array":
		a, ok := v.([]any)
		if !ok {
			return path + " must be an array"
		}
		if sc.MinItems != nil && len(a) < *sc.MinItems {
			return fmt.Sprintf("%s needs at least %d items", path, *sc.MinItems)
		}
		if sc.MaxItems != nil && len(a) > *sc.MaxItems {
			return fmt.Sprintf("%s takes at most %d items", path, *sc.MaxItems)
		}
		if sc.Items != nil {
			for i, c := range a {
				if d := checkValue(sc.Items, c, fmt.Sprintf("%s[%d]", path, i)); d != "" {
					return d
				}
			}
		}
	case "string":
		s, ok := v.(string)
		if !ok {
			return path + " must be a string"
		}
		if sc.MaxLength != nil && utf16Len(s) > *sc.MaxLength {
			return fmt.Sprintf("%s is longer than %d characters", path, *sc.MaxLength)
		}
		if sc.Pattern != "" {
			re, err := regexp.Compile(sc.Pattern)
			if err == nil && !re.MatchString(s) {
				return fmt.Sprintf("%s does not match %s", path, sc.Pattern)
			}
		}
	case "integer":
		n, ok := v.(json.Number)
		if !ok {
			return path + " must be an integer"
		}
		i, err := n.Int64()
		if err != nil {
			return path + " must be an integer"
		}
		if sc.Minimum != nil && float64(i) < *sc.Minimum {
			return fmt.Sprintf("%s must be at least %v", path, *sc.Minimum)
		}
		if sc.Maximum != nil && float64(i) > *sc.Maximum {
			return fmt.Sprintf("%s must be at most %v", path, *sc.Maximum)
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			return path + " must be true or false"
		}
	}
	if len(sc.Enum) > 0 {
		for _, e := range sc.Enum {
			if fmt.Sprint(e) == fmt.Sprint(v) {
				return ""
			}
		}
		names := make([]string, len(sc.Enum))
		for i, e := range sc.Enum {
			names[i] = fmt.Sprint(e)
		}
		return fmt.Sprintf("%s is one of %s", path, strings.Join(names, ", "))
	}
	return ""
}

func fieldPath(path, k string) string {
	if path == "arguments" {
		return k
	}
	return path + "." + k
}
