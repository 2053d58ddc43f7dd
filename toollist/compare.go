package toollist

// Row is one figure compared: its name as --json writes it, old and new.
type Row struct {
	Name     string
	Old, New int64
}

// ToolRow is one tool's model-read bytes compared. A tool only in the new
// list is Added; only in the old, Removed.
type ToolRow struct {
	Name           string
	Old, New       int64
	Added, Removed bool
	// OldFig and NewFig are the tool's figures in each list (zero where
	// it is absent).
	OldFig, NewFig ToolFigures
}

// Comparison is two tool lists side by side, as benchstat compares runs.
type Comparison struct {
	// Figures holds every top-level figure, old and new.
	Figures []Row
	// Tools holds each tool's model-read bytes: the new list's tools in its
	// order, then the tools removed, in the old list's order.
	Tools []ToolRow
	// Added and Removed name the tools only in the new or the old list.
	Added, Removed []string
	// Total is the model-read bytes of the whole list.
	Total Row
}

// Compare sets the figures of two tool lists side by side. Tools are
// matched by name (a repeated name by its occurrence).
func Compare(old, new *Figures) *Comparison {
	c := &Comparison{
		Figures: []Row{
			{"wire_bytes", old.WireBytes, new.WireBytes},
			{"tools", int64(old.Tools), int64(new.Tools)},
			{"model_read_bytes", old.ModelReadBytes, new.ModelReadBytes},
			{"model_read_tokens", old.ModelReadTokens, new.ModelReadTokens},
			{"description_bytes", old.DescriptionBytes, new.DescriptionBytes},
			{"field_description_bytes", old.FieldDescriptionBytes, new.FieldDescriptionBytes},
			{"longest_description_chars", int64(old.Longest.Chars), int64(new.Longest.Chars)},
		},
		Added:   []string{},
		Removed: []string{},
		Total:   Row{"model_read_bytes", old.ModelReadBytes, new.ModelReadBytes},
	}
	// Each tokenizer both lists were counted with: NAME_tokens.
	for _, ot := range old.Tokenizers {
		if n, ok := TokenizerTokens(new.Tokenizers, ot.Name); ok {
			c.Figures = append(c.Figures, Row{ot.Name + "_tokens", ot.Tokens, n})
		}
	}
	type key struct {
		name string
		nth  int
	}
	keys := func(f *Figures) []key {
		seen := map[string]int{}
		out := make([]key, len(f.PerTool))
		for i, t := range f.PerTool {
			out[i] = key{t.Name, seen[t.Name]}
			seen[t.Name]++
		}
		return out
	}
	oldKeys, newKeys := keys(old), keys(new)
	oldAt := make(map[key]int, len(oldKeys))
	for i, k := range oldKeys {
		oldAt[k] = i
	}
	matched := make([]bool, len(oldKeys))
	for i, k := range newKeys {
		nt := new.PerTool[i]
		if j, ok := oldAt[k]; ok {
			matched[j] = true
			c.Tools = append(c.Tools, ToolRow{Name: nt.Name, Old: old.PerTool[j].ModelReadBytes, New: nt.ModelReadBytes, OldFig: old.PerTool[j], NewFig: nt})
			continue
		}
		c.Tools = append(c.Tools, ToolRow{Name: nt.Name, New: nt.ModelReadBytes, Added: true, NewFig: nt})
		c.Added = append(c.Added, nt.Name)
	}
	for j, ok := range matched {
		if !ok {
			ot := old.PerTool[j]
			c.Tools = append(c.Tools, ToolRow{Name: ot.Name, Old: ot.ModelReadBytes, Removed: true, OldFig: ot})
			c.Removed = append(c.Removed, ot.Name)
		}
	}
	return c
}
