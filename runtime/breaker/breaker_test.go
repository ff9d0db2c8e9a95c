package breaker

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/resilint/resilint/runtime/internal/assert"
	"github.com/resilint/resilint/runtime/internal/require"
)

func TestOpensAtFailureRateAfterMinimumCalls(t *testing.T) {
	b := mustNew(t, Config{}) // 100-call window, 20 minimum calls, 50%
	require.Zero(t, run(b, 19, fail))
	assert.Equal(t, StateClosed, b.State(), "19 calls are below MinimumCalls")
	require.Zero(t, run(b, 1, fail))
	assert.Equal(t, StateOpen, b.State())

	b = mustNew(t, Config{})
	run(b, 11, succeed)
	run(b, 9, fail)
	assert.Equal(t, StateClosed, b.State(), "45% is below 50%")
	run(b, 1, fail)
	assert.Equal(t, StateClosed, b.State(), "10 of 21 is 47.6%")
	run(b, 1, fail)
	assert.Equal(t, StateOpen, b.State(), "11 of 22 is 50%")
}

func TestOpensOnceMinimumReachedBySuccess(t *testing.T) {
	b := mustNew(t, Config{MinimumCalls: 4, WindowSize: 10})
	run(b, 3, fail)
	assert.Equal(t, StateClosed, b.State())
	run(b, 1, succeed) // 3 of 4 failed: judged on this success
	assert.Equal(t, StateOpen, b.State())
}

func TestCountWindowForgetsOldCalls(t *testing.T) {
	b := mustNew(t, Config{WindowSize: 10, MinimumCalls: 10})
	run(b, 4, fail)
	run(b, 10, succeed) // the failures slid out
	m := b.Metrics()
	assert.Equal(t, Metrics{State: StateClosed, Calls: 10}, m)
	run(b, 4, fail)
	assert.Equal(t, StateClosed, b.State())
	run(b, 1, fail)
	assert.Equal(t, StateOpen, b.State())
}

func TestOpenRejectsWithoutCallingTheOperation(t *testing.T) {
	b := mustNew(t, Config{MinimumCalls: 2, WindowSize: 2})
	run(b, 2, fail)
	require.Equal(t, StateOpen, b.State())

	var calls atomic.Int64
	op := func(context.Context) error { calls.Add(1); return nil }
	for range 1000 {
		err := b.Do(context.Background(), op)
		require.ErrorIs(t, err, ErrOpen)
		require.Same(t, ErrOpen, err)
		var co interface{ CircuitOpen() bool }
		require.ErrorAs(t, err, &co)
		require.True(t, co.CircuitOpen())
		require.NotErrorIs(t, err, errDown, "a rejection is not the dependency's failure")
	}
	_, err := Execute(context.Background(), b, func(context.Context) (int, error) { calls.Add(1); return 1, nil })
	require.ErrorIs(t, err, ErrOpen)
	done, err := b.Allow()
	require.ErrorIs(t, err, ErrOpen)
	require.Nil(t, done)
	assert.Zero(t, calls.Load(), "the operation was never reached")
	assert.Equal(t, uint64(1002), b.Metrics().Rejected)
}

func TestHalfOpenClosesAfterEnoughGoodTrials(t *testing.T) {
	clk := newFakeClock()
	var ts []Transition
	b := mustNew(t, Config{Name: "db", MinimumCalls: 2, WindowSize: 2, Clock: clk, Rand: zeroRand,
		OnStateChange: func(tr Transition) { ts = append(ts, tr) }})
	run(b, 2, fail)
	require.Equal(t, StateOpen, b.State())
	clk.Advance(5*time.Second - 1)
	require.Equal(t, 1, run(b, 1, succeed), "still open just before the wait ends")
	clk.Advance(1)
	require.Zero(t, run(b, 7, succeed))
	assert.Equal(t, StateHalfOpen, b.State(), "7 of the 8 needed")
	require.Zero(t, run(b, 1, succeed))
	assert.Equal(t, StateClosed, b.State())

	require.Len(t, ts, 3)
	assert.Equal(t, []State{StateOpen, StateHalfOpen, StateClosed}, []State{ts[0].To, ts[1].To, ts[2].To})
	assert.Equal(t, "failure rate 100.0% >= 50.0% over the last 2 calls", ts[0].Reason)
	assert.Equal(t, "open wait of 5s elapsed", ts[1].Reason)
	assert.Equal(t, "8 of 10 trial calls succeeded", ts[2].Reason)
	assert.Equal(t, clk.Now(), ts[2].Time)
	assert.Equal(t, uint64(3), ts[2].Generation)
	assert.Equal(t, ts[0].Time.Add(5*time.Second), ts[0].OpenUntil)
}

func TestHalfOpenReopensWithGrowingCappedWait(t *testing.T) {
	clk := newFakeClock()
	b := mustNew(t, Config{MinimumCalls: 1, WindowSize: 1, Clock: clk, Rand: zeroRand,
		HalfOpenTrials: 4, HalfOpenSuccesses: 3, OpenWait: time.Second, MaxOpenWait: 5 * time.Second})
	run(b, 1, fail)
	for _, want := range []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 5 * time.Second, 5 * time.Second} {
		require.Equal(t, StateOpen, b.State())
		assert.Equal(t, clk.Now().Add(want), b.Metrics().OpenUntil)
		clk.Advance(want)
		run(b, 1, succeed)
		require.Equal(t, StateHalfOpen, b.State())
		run(b, 1, fail) // 1 bad: 3 of 4 still possible
		require.Equal(t, StateHalfOpen, b.State())
		run(b, 1, fail) // 2 bad: out of reach
	}
	// Close, then stay closed for OpenWaitResetAfter: the wait starts over.
	clk.Advance(5 * time.Second)
	run(b, 3, succeed)
	require.Equal(t, StateClosed, b.State())
	clk.Advance(time.Minute)
	run(b, 1, fail)
	assert.Equal(t, clk.Now().Add(time.Second), b.Metrics().OpenUntil, "a stable close resets the wait")

	// Closing and failing again at once is flapping: the wait keeps growing.
	clk.Advance(time.Second)
	run(b, 3, succeed)
	require.Equal(t, StateClosed, b.State())
	run(b, 1, fail)
	assert.Equal(t, clk.Now().Add(2*time.Second), b.Metrics().OpenUntil)
}

func TestOpenWaitJitter(t *testing.T) {
	clk := newFakeClock()
	b := mustNew(t, Config{MinimumCalls: 1, WindowSize: 1, Clock: clk, Rand: func() float64 { return 0.5 }})
	run(b, 1, fail)
	assert.Equal(t, clk.Now().Add(4500*time.Millisecond), b.Metrics().OpenUntil, "5s less 0.5 of 20%")
}

func TestHalfOpenLatencyBound(t *testing.T) {
	clk := newFakeClock()
	b := mustNew(t, Config{MinimumCalls: 1, WindowSize: 1, Clock: clk, Rand: zeroRand,
		HalfOpenTrials: 2, HalfOpenSuccesses: 2, HalfOpenMaxLatency: 100 * time.Millisecond})
	run(b, 1, fail)
	clk.Advance(5 * time.Second)
	slowOK := func(context.Context) error { clk.Advance(101 * time.Millisecond); return nil }
	require.NoError(t, b.Do(context.Background(), slowOK))
	assert.Equal(t, StateOpen, b.State(), "a slow success is not a good trial")
	assert.Contains(t, b.History()[2].Reason, "took longer than 100ms")

	clk.Advance(10 * time.Second)
	quickOK := func(context.Context) error { clk.Advance(100 * time.Millisecond); return nil }
	run(b, 2, quickOK)
	assert.Equal(t, StateClosed, b.State())
}

func TestHalfOpenBoundsTrials(t *testing.T) {
	clk := newFakeClock()
	b := mustNew(t, Config{MinimumCalls: 1, WindowSize: 1, Clock: clk, Rand: zeroRand, HalfOpenTrials: 3, HalfOpenSuccesses: 3})
	run(b, 1, fail)
	clk.Advance(5 * time.Second)
	var dones []func(error)
	for range 3 {
		done, err := b.Allow()
		require.NoError(t, err)
		dones = append(dones, done)
	}
	assert.Equal(t, StateHalfOpen, b.State())
	_, err := b.Allow()
	require.ErrorIs(t, err, ErrTooManyTrials)
	require.ErrorIs(t, err, ErrOpen, "every rejection is ErrOpen for errors.Is")
	require.NotErrorIs(t, ErrOpen, ErrTooManyTrials)
	require.True(t, err.(interface{ CircuitOpen() bool }).CircuitOpen())

	// An ignored trial gives its place back.
	dones[0](context.Canceled)
	done, err := b.Allow()
	require.NoError(t, err)
	dones[0] = done
	for _, d := range dones {
		d(nil)
		d(errDown) // consumed once: later calls do nothing
	}
	assert.Equal(t, StateClosed, b.State())
	assert.Equal(t, uint64(1), b.Metrics().Rejected)
}

func TestHalfOpenTimeout(t *testing.T) {
	clk := newFakeClock()
	b := mustNew(t, Config{MinimumCalls: 1, WindowSize: 1, Clock: clk, Rand: zeroRand, HalfOpenTrials: 1, HalfOpenSuccesses: 1})
	run(b, 1, fail)
	clk.Advance(5 * time.Second)
	hung, err := b.Allow() // a trial that never reports
	require.NoError(t, err)
	clk.Advance(time.Minute - 1)
	_, err = b.Allow()
	require.ErrorIs(t, err, ErrTooManyTrials)
	clk.Advance(1)
	_, err = b.Allow()
	require.ErrorIs(t, err, ErrOpen)
	assert.Equal(t, StateOpen, b.State())
	assert.Equal(t, "trial calls did not finish within 1m0s", b.History()[2].Reason)
	assert.Equal(t, clk.Now().Add(10*time.Second), b.Metrics().OpenUntil, "a timed-out round counts as a failed one")
	hung(nil) // too late: another generation
	assert.Equal(t, StateOpen, b.State())
}

func TestGenerations(t *testing.T) {
	clk := newFakeClock()
	b := mustNew(t, Config{MinimumCalls: 2, WindowSize: 2, Clock: clk, Rand: zeroRand, HalfOpenTrials: 2, HalfOpenSuccesses: 2})
	// Admitted while closed, finishing after the circuit opened.
	late, err := b.Allow()
	require.NoError(t, err)
	run(b, 2, fail)
	require.Equal(t, StateOpen, b.State())
	clk.Advance(5 * time.Second)
	run(b, 1, succeed) // half-open, 1 of 2 good trials
	require.Equal(t, StateHalfOpen, b.State())
	late(nil) // would be the second good trial if generations were ignored
	assert.Equal(t, StateHalfOpen, b.State())
	assert.Equal(t, int64(1), b.Metrics().Calls)

	// Admitted in one half-open round, finishing in the next.
	trial, err := b.Allow()
	require.NoError(t, err)
	require.ErrorIs(t, b.Do(context.Background(), fail), ErrTooManyTrials)
	trialDone := trial
	run(b, 0, succeed)
	// Force the round to fail with a hung trial timing out.
	clk.Advance(time.Minute)
	require.ErrorIs(t, b.Do(context.Background(), succeed), ErrOpen)
	clk.Advance(10 * time.Second)
	run(b, 1, succeed) // next round, 1 of 2
	trialDone(nil)     // from the previous round: no say
	assert.Equal(t, StateHalfOpen, b.State())
	run(b, 1, succeed)
	assert.Equal(t, StateClosed, b.State())
}

func TestSlowCalls(t *testing.T) {
	clk := newFakeClock()
	b := mustNew(t, Config{MinimumCalls: 4, WindowSize: 8, Clock: clk, SlowCallDuration: 100 * time.Millisecond})
	slow := func(context.Context) error { clk.Advance(101 * time.Millisecond); return nil }
	edge := func(context.Context) error { clk.Advance(100 * time.Millisecond); return nil }
	run(b, 1, slow)
	run(b, 3, edge) // exactly at the bound is not slow
	assert.Equal(t, Metrics{State: StateClosed, Calls: 4, SlowCalls: 1, SlowCallRate: 25}, b.Metrics())
	run(b, 1, slow)
	assert.Equal(t, StateClosed, b.State(), "2 of 5 slow is 40%")
	run(b, 1, slow)
	require.Equal(t, StateOpen, b.State(), "3 of 6 slow is 50%")
	assert.Contains(t, b.History()[0].Reason, "slow-call rate 50.0% >= 50.0% (slower than 100ms) over the last 6 calls")
}

func TestTimeWindow(t *testing.T) {
	clk := newFakeClock()
	b := mustNew(t, Config{WindowDuration: 10 * time.Second, WindowBuckets: 10, MinimumCalls: 4, FailureRateThreshold: 60, Clock: clk})
	run(b, 2, fail)
	run(b, 2, succeed)
	clk.Advance(5 * time.Second)
	run(b, 2, succeed)
	assert.Equal(t, Metrics{State: StateClosed, Calls: 6, Failures: 2, FailureRate: 100.0 / 3}, b.Metrics())
	clk.Advance(5*time.Second - 1)
	assert.Equal(t, int64(6), b.Metrics().Calls)
	clk.Advance(1) // the first bucket drops out
	assert.Equal(t, Metrics{State: StateClosed, Calls: 2}, b.Metrics())
	run(b, 2, fail)
	assert.Equal(t, StateClosed, b.State(), "2 of 4")
	run(b, 1, fail)
	assert.Equal(t, StateOpen, b.State(), "3 of 5")
	assert.Equal(t, "failure rate 60.0% >= 60.0% over 5 calls in the last 10s", b.History()[0].Reason)
}

func TestCancelledContextIsNotCalled(t *testing.T) {
	b := mustNew(t, Config{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	called := false
	err := b.Do(ctx, func(context.Context) error { called = true; return nil })
	assert.ErrorIs(t, err, context.Canceled)
	_, err = Execute(ctx, b, func(context.Context) (int, error) { called = true; return 0, nil })
	assert.ErrorIs(t, err, context.Canceled)
	assert.False(t, called)
	assert.Zero(t, b.Metrics().Calls)
}

func TestCallerCancellationIsIgnored(t *testing.T) {
	b := mustNew(t, Config{MinimumCalls: 1, WindowSize: 1})
	ctx, cancel := context.WithCancel(context.Background())
	err := b.Do(ctx, func(context.Context) error { cancel(); return errors.New("read: connection reset") })
	require.Error(t, err)
	assert.Equal(t, StateClosed, b.State(), "the caller gave up: not the dependency's failure")
	assert.Zero(t, b.Metrics().Calls)
}

func TestPanicIsAFailure(t *testing.T) {
	b := mustNew(t, Config{MinimumCalls: 1, WindowSize: 1, Classify: func(error) Outcome { return OutcomeSuccess }})
	assert.PanicsWithValue(t, "boom", func() {
		_ = b.Do(context.Background(), func(context.Context) error { panic("boom") })
	})
	assert.Equal(t, StateOpen, b.State())
	b = mustNew(t, Config{MinimumCalls: 1, WindowSize: 1})
	assert.Panics(t, func() {
		_, _ = Execute(context.Background(), b, func(context.Context) (int, error) { panic("boom") })
	})
	assert.Equal(t, StateOpen, b.State())
}

type timeoutError struct{}

func (timeoutError) Error() string   { return "i/o timeout" }
func (timeoutError) Timeout() bool   { return true }
func (timeoutError) Temporary() bool { return true }

func TestDefaultClassify(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want Outcome
	}{
		{nil, OutcomeSuccess},
		{context.Canceled, OutcomeIgnored},
		{fmt.Errorf("get: %w", context.Canceled), OutcomeIgnored},
		{context.DeadlineExceeded, OutcomeFailure},
		{fmt.Errorf("get: %w", context.DeadlineExceeded), OutcomeFailure},
		{&net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}, OutcomeFailure},
		{&net.OpError{Op: "read", Net: "tcp", Err: timeoutError{}}, OutcomeFailure},
		{os.ErrDeadlineExceeded, OutcomeFailure},
		{errDown, OutcomeFailure},
		{statusError(400), OutcomeSuccess},
		{statusError(404), OutcomeSuccess},
		{fmt.Errorf("call: %w", statusError(409)), OutcomeSuccess},
		{statusError(408), OutcomeFailure},
		{statusError(429), OutcomeFailure},
		{statusError(500), OutcomeFailure},
		{fmt.Errorf("call: %w", statusError(503)), OutcomeFailure},
		{statusError(0), OutcomeFailure},
		{ErrOpen, OutcomeFailure},
	} {
		assert.Equal(t, tc.want, DefaultClassify(tc.err), "%v", tc.err)
	}
}

func TestClientErrorsDoNotOpen(t *testing.T) {
	b := mustNew(t, Config{MinimumCalls: 5, WindowSize: 5})
	run(b, 50, func(context.Context) error { return statusError(404) })
	assert.Equal(t, StateClosed, b.State())
	run(b, 5, func(context.Context) error { return statusError(502) })
	assert.Equal(t, StateOpen, b.State())
}

func TestListenerAndHistory(t *testing.T) {
	clk := newFakeClock()
	var got []Transition
	var b *Breaker
	b = mustNew(t, Config{Name: "payments", MinimumCalls: 1, WindowSize: 1, HistorySize: 4, Clock: clk, Rand: zeroRand,
		HalfOpenTrials: 1, HalfOpenSuccesses: 1,
		OnStateChange: func(tr Transition) {
			got = append(got, tr)
			if tr.To == StateHalfOpen {
				// A listener may call the breaker, even into another transition.
				_ = b.Do(context.Background(), fail)
			}
		}})
	run(b, 1, fail)
	clk.Advance(5 * time.Second)
	_ = b.Do(context.Background(), succeed) // half-open; the listener's call reopens
	clk.Advance(10 * time.Second)
	_ = b.Do(context.Background(), succeed) // half-open; listener reopens again
	require.Len(t, got, 5)
	for i, tr := range got {
		assert.Equal(t, uint64(i+1), tr.Generation, "delivered in order")
		if i > 0 {
			assert.Equal(t, got[i-1].To, tr.From)
		}
	}
	h := b.History()
	require.Len(t, h, 4, "bounded")
	assert.Equal(t, got[1:], h)

	var buf bytes.Buffer
	require.NoError(t, b.WriteHistory(&buf))
	sc := bufio.NewScanner(&buf)
	var lines []Transition
	for sc.Scan() {
		var tr Transition
		require.NoError(t, json.Unmarshal(sc.Bytes(), &tr), sc.Text())
		lines = append(lines, tr)
	}
	require.Len(t, lines, 4)
	for i := range lines {
		assert.True(t, h[i].Time.Equal(lines[i].Time))
		lines[i].Time = h[i].Time
		lines[i].OpenUntil = h[i].OpenUntil
	}
	assert.Equal(t, h, lines)
}

func TestTransitionJSON(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	js, err := json.Marshal(Transition{Time: at, Breaker: "db", From: StateClosed, To: StateOpen, Reason: "r", Generation: 1, OpenUntil: at.Add(5 * time.Second)})
	require.NoError(t, err)
	assert.JSONEq(t, `{"time":"2026-01-02T03:04:05Z","breaker":"db","from":"closed","to":"open","reason":"r","generation":1,"open_until":"2026-01-02T03:04:10Z"}`, string(js))
	js, err = json.Marshal(Transition{Time: at, From: StateOpen, To: StateHalfOpen, Generation: 2})
	require.NoError(t, err)
	assert.JSONEq(t, `{"time":"2026-01-02T03:04:05Z","from":"open","to":"half-open","reason":"","generation":2}`, string(js))
	var s State
	require.Error(t, s.UnmarshalText([]byte("ajar")))
	_, err = State(7).MarshalText()
	require.Error(t, err)
	assert.Equal(t, "State(7)", State(7).String())
	assert.Equal(t, "ignored", OutcomeIgnored.String())
}

func TestExecuteReturnsValue(t *testing.T) {
	b := mustNew(t, Config{})
	v, err := Execute(context.Background(), b, func(context.Context) (string, error) { return "ok", nil })
	require.NoError(t, err)
	assert.Equal(t, "ok", v)
	v, err = Execute(context.Background(), b, func(context.Context) (string, error) { return "partial", errDown })
	assert.ErrorIs(t, err, errDown)
	assert.Equal(t, "partial", v)
	assert.Equal(t, int64(1), b.Metrics().Failures)
}

func TestClosedPathDoesNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	ctx := context.Background()
	for _, c := range []Config{{}, {SlowCallDuration: time.Second}, {WindowDuration: time.Minute}} {
		b := mustNew(t, c)
		assert.Zero(t, testing.AllocsPerRun(1000, func() { _ = b.Do(ctx, succeed) }), "%+v", c)
		assert.Zero(t, testing.AllocsPerRun(1000, func() {
			_, _ = Execute(ctx, b, func(context.Context) (int, error) { return 1, nil })
		}))
	}
	b := mustNew(t, Config{MinimumCalls: 1, WindowSize: 1})
	run(b, 1, fail)
	assert.Zero(t, testing.AllocsPerRun(1000, func() { _ = b.Do(ctx, succeed) }), "open path")
}
