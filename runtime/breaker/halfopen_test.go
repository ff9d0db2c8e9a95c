package breaker

import (
	"testing"
	"time"
)

// Issue 11 (4): trials of a round already lost keep running while the next
// round begins; the next round must not admit a full set on top of them.
// With HalfOpenTrials = 5, five rounds used to have 25 trials running at
// once.
func TestHalfOpenCountsTrialsOfEveryRound(t *testing.T) {
	clk := newFakeClock()
	b := mustNew(t, Config{MinimumCalls: 1, WindowSize: 1, Clock: clk, Rand: zeroRand,
		HalfOpenTrials: 5, HalfOpenSuccesses: 5})
	run(b, 1, fail)
	var running []func(error)
	most := 0
	//resilint:ignore decoratororder six half-open rounds driven by hand, not a retry
	for range 6 {
		clk.Advance(time.Hour) // past the open wait and the half-open timeout
		var admitted []func(error)
		for {
			done, err := b.Allow()
			if err != nil {
				break
			}
			admitted = append(admitted, done)
		}
		running = append(running, admitted...)
		most = max(most, len(running))
		if len(admitted) > 0 {
			// One trial of this round fails: the round is lost and the
			// circuit reopens; the others keep running.
			admitted[0](errDown)
			i := len(running) - len(admitted)
			running = append(running[:i], running[i+1:]...)
		}
	}
	if most > 5 {
		t.Errorf("%d trials running at once, want at most HalfOpenTrials = 5", most)
	}
	// The slow trials finish (their rounds are over: no say), their places
	// come back, and a new round can close the circuit.
	for _, d := range running {
		d(nil)
	}
	clk.Advance(time.Hour)
	for range 5 {
		done, err := b.Allow()
		if err != nil {
			t.Fatalf("a new round after every trial finished: %v", err)
		}
		done(nil)
	}
	if s := b.State(); s != StateClosed {
		t.Errorf("state %v after 5 good trials, want closed", s)
	}
}
