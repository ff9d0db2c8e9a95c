package breaker

import (
	"fmt"
	"time"
)

// State is the state of a circuit.
type State uint32

const (
	// StateClosed lets calls through and records their outcomes.
	StateClosed State = iota
	// StateOpen rejects calls with ErrOpen until the open wait has elapsed.
	StateOpen
	// StateHalfOpen lets a bounded number of trial calls through.
	StateHalfOpen
)

// String returns "closed", "open" or "half-open".
func (s State) String() string {
	switch s {
	case StateClosed:
		return "closed"
	case StateOpen:
		return "open"
	case StateHalfOpen:
		return "half-open"
	}
	return fmt.Sprintf("State(%d)", uint32(s))
}

// MarshalText returns the String form, so that states read well in JSON.
func (s State) MarshalText() ([]byte, error) {
	switch s {
	case StateClosed, StateOpen, StateHalfOpen:
		return []byte(s.String()), nil
	}
	return nil, fmt.Errorf("breaker: invalid State %d", uint32(s))
}

// UnmarshalText parses the String form.
func (s *State) UnmarshalText(text []byte) error {
	switch string(text) {
	case "closed":
		*s = StateClosed
	case "open":
		*s = StateOpen
	case "half-open":
		*s = StateHalfOpen
	default:
		return fmt.Errorf("breaker: invalid state %q", text)
	}
	return nil
}

// Outcome is how a finished call counts.
type Outcome uint8

const (
	// OutcomeSuccess counts as a success.
	OutcomeSuccess Outcome = iota
	// OutcomeFailure counts as a failure.
	OutcomeFailure
	// OutcomeIgnored is not recorded at all: the call says nothing about the
	// health of the dependency (it was cancelled by the caller, say). In the
	// half-open state an ignored trial gives its place back to another trial.
	OutcomeIgnored
)

// String returns "success", "failure" or "ignored".
func (o Outcome) String() string {
	switch o {
	case OutcomeSuccess:
		return "success"
	case OutcomeFailure:
		return "failure"
	case OutcomeIgnored:
		return "ignored"
	}
	return fmt.Sprintf("Outcome(%d)", uint8(o))
}

// Transition records one change of state. Its JSON form is one object with the
// fields named in the tags; [Breaker.WriteHistory] writes one per line.
type Transition struct {
	// Time is when the transition happened, by the breaker's clock.
	Time time.Time `json:"time"`
	// Breaker is Config.Name.
	Breaker string `json:"breaker,omitempty"`
	// From and To are the states before and after.
	From State `json:"from"`
	To   State `json:"to"`
	// Reason says why, in words: "failure rate 60.0% >= 50.0% over the last 20
	// calls", "open wait of 5s elapsed", ...
	Reason string `json:"reason"`
	// Generation is the number of the generation that starts with this
	// transition; the breaker starts in generation 0.
	Generation uint64 `json:"generation"`
	// OpenUntil is, for a transition to StateOpen, when the open wait ends.
	OpenUntil time.Time `json:"open_until,omitzero"`
}
