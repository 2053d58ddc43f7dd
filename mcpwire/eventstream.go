package mcpwire

import (
	"errors"
	"fmt"
)

var (
	errEnded        = errors.New("the event stream ended before the answer")
	errEndedInEvent = errors.New("the event stream ended in the middle of an event, before the answer")
)

// errStreamEnded is the cause when a stream ends before the answer.
func errStreamEnded(events int, cut bool) error {
	s := "the event stream ended before the answer"
	if cut {
		s = "the event stream ended in the middle of an event, before the answer"
	}
	switch events {
	case 0:
		s += " (no event with data)"
	case 1:
		s += " (1 event read)"
	default:
		s += fmt.Sprintf(" (%d events read)", events)
	}
	return errors.New(s)
}
