package twin

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// argSchema is the part of JSON Schema the words' input schemas use, read
// to check a call's arguments before anything is done: the twin refuses
// bad arguments in its own words, as the service does, rather than
// passing them on.
type argSchema struct {
	Type                 typeList              `json:"type"`
	Properties           map[string]*argSchema `json:"properties"`
	Required             []string              `json:"required"`
	AdditionalProperties closedFlag            `json:"additionalProperties"`
	Items                *argSchema            `json:"items"`
	Enum                 []any                 `json:"enum"`
	Minimum              *float64              `json:"minimum"`
	Maximum              *float64              `json:"maximum"`
	MinLength            *int                  `json:"minLength"`
	MaxLength            *int                  `json:"maxLength"`
	MinItems             *int                  `json:"minItems"`
	MaxItems             *int                  `json:"maxItems"`
	Pattern              string                `json:"pattern"`
	AnyOf                []*argSchema          `json:"anyOf"`
}

// closedFlag is additionalProperties read as whether an object is
// closed: false closes it; true, a schema ({} in an open output schema)
// or nothing leaves it open.
type closedFlag bool

func (c *closedFlag) UnmarshalJSON(b []byte) error {
	*c = closedFlag(bytes.Equal(bytes.TrimSpace(b), []byte("false")))
	return nil
}

// typeList is a schema's type: one name, or a list of them.
type typeList []string

func (t *typeList) UnmarshalJSON(b []byte) error {
	var one string
	if json.Unmarshal(b, &one) == nil {
		*t = typeList{one}
		return nil
	}
	var many []string
	if err := json.Unmarshal(b, &many); err != nil {
		return err
	}
	*t = many
	return nil
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
	// The top of an input schema leaves additionalProperties out, as the
	// service's do; the twin still refuses a field no tool declares, so a
	// misspelt argument is told rather than dropped.
	sc.AdditionalProperties = true
	v, d := checkValue(&sc, args, "arguments")
	if d != "" {
		return nil, d
	}
	return v.(map[string]any), ""
}

// checkValue checks v against sc and answers it, with an integer given as
// a string of digits read as the integer (templated arguments arrive as
// text), or the detail of the first thing wrong.
func checkValue(sc *argSchema, v any, path string) (any, string) {
	if len(sc.AnyOf) > 0 {
		// The alternative of the value's own type is tried first, and its
		// detail is the one given when none takes the value.
		alts := slices.Clone(sc.AnyOf)
		slices.SortStableFunc(alts, func(a, b *argSchema) int {
			ai, bi := slices.Contains(a.Type, nativeType(v)), slices.Contains(b.Type, nativeType(v))
			switch {
			case ai && !bi:
				return -1
			case bi && !ai:
				return 1
			}
			return 0
		})
		var first string
		for _, alt := range alts {
			got, d := checkValue(alt, v, path)
			if d == "" {
				return got, ""
			}
			if first == "" {
				first = d
			}
		}
		return nil, first
	}
	if len(sc.Type) > 1 {
		// The value's own type is tried first, and its detail is the one
		// given when no type takes the value.
		types := slices.Clone([]string(sc.Type))
		if i := slices.Index(types, nativeType(v)); i > 0 {
			types[0], types[i] = types[i], types[0]
		}
		var first string
		for _, t := range types {
			one := *sc
			one.Type = typeList{t}
			got, d := checkValue(&one, v, path)
			if d == "" {
				return got, ""
			}
			if first == "" {
				first = d
			}
		}
		return nil, first
	}
	typ := ""
	if len(sc.Type) == 1 {
		typ = sc.Type[0]
	}
	switch typ {
	case "object":
		m, ok := v.(map[string]any)
		if !ok {
			return nil, path + " must be an object"
		}
		for _, r := range sc.Required {
			if _, ok := m[r]; !ok {
				return nil, fieldPath(path, r) + " is required"
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
				if sc.AdditionalProperties {
					return nil, fieldPath(path, k) + " is not a field of this tool"
				}
				continue
			}
			got, d := checkValue(p, m[k], fieldPath(path, k))
			if d != "" {
				return nil, d
			}
			m[k] = got
		}
	case "array":
		a, ok := v.([]any)
		if !ok {
			return nil, path + " must be an array"
		}
		if sc.MinItems != nil && len(a) < *sc.MinItems {
			return nil, fmt.Sprintf("%s needs at least %d items", path, *sc.MinItems)
		}
		if sc.MaxItems != nil && len(a) > *sc.MaxItems {
			return nil, fmt.Sprintf("%s takes at most %d items", path, *sc.MaxItems)
		}
		if sc.Items != nil {
			for i, c := range a {
				got, d := checkValue(sc.Items, c, fmt.Sprintf("%s[%d]", path, i))
				if d != "" {
					return nil, d
				}
				a[i] = got
			}
		}
	case "string":
		s, ok := v.(string)
		if !ok {
			return nil, path + " must be a string"
		}
		if sc.MinLength != nil && utf16Len(s) < *sc.MinLength {
			return nil, fmt.Sprintf("%s is shorter than %d characters", path, *sc.MinLength)
		}
		if sc.MaxLength != nil && utf16Len(s) > *sc.MaxLength {
			return nil, fmt.Sprintf("%s is longer than %d characters", path, *sc.MaxLength)
		}
		if sc.Pattern != "" {
			re, err := regexp.Compile(sc.Pattern)
			if err == nil && !re.MatchString(s) {
				return nil, fmt.Sprintf("%s does not match %s", path, sc.Pattern)
			}
		}
	case "integer":
		var n json.Number
		switch x := v.(type) {
		case json.Number:
			n = x
		case string:
			if !digitsRE.MatchString(x) {
				return nil, path + " must be an integer"
			}
			n = json.Number(x)
		default:
			return nil, path + " must be an integer"
		}
		i, err := n.Int64()
		if err != nil {
			return nil, path + " must be an integer"
		}
		if sc.Minimum != nil && float64(i) < *sc.Minimum {
			return nil, fmt.Sprintf("%s must be at least %v", path, *sc.Minimum)
		}
		if sc.Maximum != nil && float64(i) > *sc.Maximum {
			return nil, fmt.Sprintf("%s must be at most %v", path, *sc.Maximum)
		}
		v = json.Number(strconv.FormatInt(i, 10))
	case "boolean":
		if _, ok := v.(bool); !ok {
			return nil, path + " must be true or false"
		}
	case "null":
		if v != nil {
			return nil, path + " must be null"
		}
	}
	if len(sc.Enum) > 0 {
		for _, e := range sc.Enum {
			if fmt.Sprint(e) == fmt.Sprint(v) {
				return v, ""
			}
		}
		names := make([]string, len(sc.Enum))
		for i, e := range sc.Enum {
			names[i] = fmt.Sprint(e)
		}
		return nil, fmt.Sprintf("%s is one of %s", path, strings.Join(names, ", "))
	}
	return v, ""
}

// nativeType names the JSON type of a decoded value.
func nativeType(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case json.Number:
		return "integer"
	case bool:
		return "boolean"
	case map[string]any:
		return "object"
	case []any:
		return "array"
	}
	return "null"
}

// digitsRE is an integer written as text.
var digitsRE = regexp.MustCompile(`^-?[0-9]{1,18}$`)

func fieldPath(path, k string) string {
	if path == "arguments" {
		return k
	}
	return path + "." + k
}
