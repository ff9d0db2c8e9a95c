package model

import (
	"fmt"
	"strings"
)

// RetryFact is exported for every function that retries, or that calls
// (through any chain of static calls, closures and functions handed to
// retry libraries) something that retries. It carries the worst case, so
// that a retry in another package can say how much it amplifies.
//
// Facts cross process boundaries under go vet: they hold plain values and
// positions as "file.go:line" strings.
type RetryFact struct {
	// Calls is the worst-case number of downstream calls one invocation
	// makes: the product of the attempts of nested retries, summed over
	// the retrying calls made in sequence. 0 means unknown (a retry on
	// the way has no constant bound).
	Calls int64
	// Depth is the number of retries nested along the worst chain.
	Depth int
	// Via lists the functions from this one's callee down to the function
	// that holds the innermost retry, outermost first.
	Via []string
	// Site describes the innermost retry: "retry loop (3 attempts) at
	// client.go:31", "retryablehttp.Client.Do (5 attempts) at x.go:12".
	Site string
	// Disable, when the innermost retry is a library's, says how to switch
	// its retrying off.
	Disable string
	// AttemptsParam, when not 0, says that the function's own retry takes
	// its attempt bound from its parameter AttemptsParam-1 (a recursive
	// retry counting down `attempts`): a call with a constant argument n
	// makes AttemptsSign*n + AttemptsOffset attempts (at least one), each
	// PerAttempt calls.
	AttemptsParam  int
	AttemptsSign   int
	AttemptsOffset int64
	PerAttempt     int64
}

func (*RetryFact) AFact() {}

func (f *RetryFact) String() string {
	calls := "?"
	if f.Calls > 0 {
		calls = fmt.Sprint(f.Calls)
	}
	s := "retries(" + calls
	if f.Depth > 1 {
		s += fmt.Sprintf(", nested %d", f.Depth)
	}
	if len(f.Via) > 0 {
		s += ", via " + strings.Join(f.Via, " → ")
	}
	return s + ")"
}
