package compat

// Level is how much a change can hurt a client that was written against
// the old tool list.
type Level uint8

// The levels, least severe first, so that levels compare with < and >.
const (
	// Compatible changes leave every existing caller working.
	Compatible Level = iota
	// Warning changes keep calls working but promise less: a client that
	// relied on the old promise (to call without asking, to retry) may now
	// do harm.
	Warning
	// Breaking changes make some existing call fail or some existing
	// reader of a result wrong.
	Breaking
)

// String returns the level's name: "compatible", "warning" or "breaking".
func (l Level) String() string {
	switch l {
	case Breaking:
		return "breaking"
	case Warning:
		return "warning"
	}
	return "compatible"
}

// ParseLevel returns the level named s ("breaking", "warning" or
// "compatible"), and whether s names one.
func ParseLevel(s string) (Level, bool) {
	for _, l := range []Level{Compatible, Warning, Breaking} {
		if l.String() == s {
			return l, true
		}
	}
	return Compatible, false
}

// Rule is one documented kind of change: its stable id, its level and
// what it means in a sentence.
type Rule struct {
	ID    string
	Level Level
	// Says is the rule's sentence, as reports print it.
	Says string
}

// Rules lists every rule Compare applies, by id. The ids are stable:
// reports, CI filters and docs/breaking.md name them.
var Rules = map[string]Rule{}

func rule(id string, l Level, says string) string {
	Rules[id] = Rule{id, l, says}
	return id
}

// The rules' ids.
var (
	ruleToolRemoved   = rule("tool-removed", Breaking, "a tool was removed: every call to it fails")
	ruleToolRenamed   = rule("tool-renamed", Breaking, "a tool was renamed (same input schema, new name): calls by the old name fail")
	ruleToolAdded     = rule("tool-added", Compatible, "a tool was added")
	ruleTitle         = rule("title-changed", Compatible, "a title changed")
	ruleDescription   = rule("description-changed", Compatible, "a description changed")
	ruleReadOnly      = rule("read-only-hint-dropped", Warning, "readOnlyHint no longer promises that the tool leaves its environment unchanged")
	ruleDestructive   = rule("destructive-hint-raised", Warning, "destructiveHint now says the tool may destroy or overwrite")
	ruleIdempotent    = rule("idempotent-hint-dropped", Warning, "idempotentHint no longer promises that a repeated call has no further effect")
	ruleOpenWorld     = rule("open-world-hint-raised", Warning, "openWorldHint now says the tool reaches an open world of outside entities")
	ruleHintMore      = rule("hint-promises-more", Compatible, "an annotation now promises more (read-only, not destructive, idempotent or closed world)")
	ruleHintMoot      = rule("hint-moot-changed", Compatible, "destructiveHint or idempotentHint changed on a tool that says it is read-only, where they mean nothing")
	ruleTaskNarrowed  = rule("task-support-narrowed", Breaking, "execution.taskSupport now refuses a way of calling that used to work (a task now required, or no longer allowed)")
	ruleTaskWidened   = rule("task-support-widened", Compatible, "execution.taskSupport now allows more ways of calling")
	ruleMeta          = rule("meta-changed", Compatible, "_meta changed")
	ruleIcons         = rule("icons-changed", Compatible, "icons changed")
	ruleMember        = rule("member-changed", Compatible, "another member of the tool changed")
	ruleOutputAdded   = rule("output-schema-added", Compatible, "the tool now declares an outputSchema")
	ruleOutputRemoved = rule("output-schema-removed", Breaking, "the tool no longer declares an outputSchema: clients that read structuredContent lose its contract")

	ruleParamRemoved     = rule("param-removed", Breaking, "a parameter was removed: calls that pass it may be refused")
	ruleRequiredAdded    = rule("required-param-added", Breaking, "a new required parameter: every existing call lacks it")
	ruleMadeRequired     = rule("param-made-required", Breaking, "a parameter became required: calls that omit it fail")
	ruleOptionalAdded    = rule("optional-param-added", Compatible, "an optional parameter was added")
	ruleMadeOptional     = rule("param-made-optional", Compatible, "a parameter became optional")
	ruleTypeNarrowed     = rule("type-narrowed", Breaking, "a parameter's type accepts fewer kinds of value")
	ruleTypeChanged      = rule("type-changed", Breaking, "a parameter's type changed")
	ruleTypeWidened      = rule("type-widened", Compatible, "a parameter's type accepts more kinds of value")
	ruleEnumRemoved      = rule("enum-value-removed", Breaking, "an allowed value was removed (enum or const)")
	ruleEnumAdded        = rule("enum-value-added", Compatible, "an allowed value was added (enum or const)")
	ruleBoundTightened   = rule("bound-tightened", Breaking, "a bound now refuses values it accepted (maxLength, minimum, pattern, minItems, uniqueItems...)")
	ruleBoundLoosened    = rule("bound-loosened", Compatible, "a bound now accepts more values")
	ruleAdditionalClosed = rule("additional-properties-closed", Breaking, "additionalProperties closed: members it accepted are now refused")
	ruleAdditionalOpened = rule("additional-properties-opened", Compatible, "additionalProperties opened: more members are accepted")
	ruleDefault          = rule("default-changed", Warning, "a parameter's default changed: calls that omit it now behave differently")
	ruleNote             = rule("note-changed", Compatible, "a keyword that only annotates changed ($comment, examples, deprecated, $schema...)")
	ruleKeyword          = rule("keyword-changed", Warning, "a schema keyword changed in a way these rules do not classify: review it")

	ruleOutFieldRemoved   = rule("output-field-removed", Breaking, "an output field was removed: clients that read it break")
	ruleOutMadeOptional   = rule("output-field-made-optional", Breaking, "an output field is no longer required: clients that read it may find it missing")
	ruleOutFieldAdded     = rule("output-field-added", Compatible, "an output field was added")
	ruleOutMadeRequired   = rule("output-field-made-required", Compatible, "an output field is now always present")
	ruleOutTypeChanged    = rule("output-type-changed", Breaking, "an output field's type changed or widened: clients may read a kind of value they do not expect")
	ruleOutTypeNarrowed   = rule("output-type-narrowed", Compatible, "an output field's type narrowed")
	ruleOutEnumAdded      = rule("output-enum-value-added", Warning, "an output field may hold a value it never held before")
	ruleOutEnumRemoved    = rule("output-enum-value-removed", Compatible, "an output field no longer holds one of its values")
	ruleOutBoundLoosened  = rule("output-bound-loosened", Warning, "an output field's bound loosened: clients may read values outside the old one")
	ruleOutBoundTightened = rule("output-bound-tightened", Compatible, "an output field's bound tightened")
	ruleOutAdditional     = rule("output-additional-properties-changed", Compatible, "the output's additionalProperties changed")
)
