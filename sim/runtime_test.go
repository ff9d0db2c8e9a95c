package sim

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilint/resilint/runtime/retry"
)

// TestMatchesRetryDo runs one client in the simulator and the same policy,
// with the same random source, through the real retry.Do on synctest's
// virtual clock, against a dependency that always answers 503: the number
// of attempts, the reason to stop and the time taken must agree (the
// simulator adds its 1ms failure latency per attempt).
func TestMatchesRetryDo(t *testing.T) {
	budget1 := &retry.BudgetConfig{Ratio: 1, MaxTokens: 1, NoFloor: true}
	cases := []struct {
		name       string
		policy     retry.Policy
		budget     *retry.BudgetConfig
		retryAfter time.Duration
	}{
		{"full", retry.Policy{MaxAttempts: 6, BaseDelay: time.Second, MaxDelay: 16 * time.Second}, nil, 0},
		{"equal", retry.Policy{MaxAttempts: 6, BaseDelay: time.Second, MaxDelay: 16 * time.Second, Jitter: retry.JitterEqual}, nil, 0},
		{"decorrelated", retry.Policy{MaxAttempts: 8, BaseDelay: time.Second, MaxDelay: 16 * time.Second, Jitter: retry.JitterDecorrelated}, nil, 0},
		//resilint:ignore backoff the simulation compares a policy without jitter on purpose
		{"none", retry.Policy{MaxAttempts: 5, BaseDelay: time.Second, MaxDelay: 4 * time.Second, Jitter: retry.JitterNone}, nil, 0},
		{"default", retry.Policy{}, nil, 0},
		{"retry-after", retry.Policy{MaxAttempts: 4, BaseDelay: 100 * time.Millisecond, MaxDelay: 16 * time.Second}, nil, 3 * time.Second},
		{"retry-after-too-long", retry.Policy{MaxAttempts: 4, BaseDelay: 100 * time.Millisecond, MaxDelay: 2 * time.Second}, nil, 3 * time.Second},
		{"budget", retry.Policy{MaxAttempts: 6}, budget1, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			const seed = 7
			s := &Scenario{Name: c.name, Seed: seed, Workload: Workload{Clients: 1},
				Downstream: Downstream{Outage: Window{Duration: time.Hour}, RetryAfter: c.retryAfter}}
			r := mustRun(t, s, &Client{Name: c.name, Layers: []Layer{{Policy: c.policy, Budget: c.budget}}})

			var attempts int
			var elapsed time.Duration
			var err error
			synctest.Test(t, func(t *testing.T) {
				p := c.policy
				src := seedFor(seed, 0)
				p.Rand = &src
				if c.budget != nil {
					b, berr := retry.NewBudget(*c.budget)
					if berr != nil {
						t.Fatal(berr)
					}
					p.Budget = b
				}
				start := time.Now()
				err = retry.Do(context.Background(), &p, func(context.Context) error {
					attempts++
					return &retry.StatusError{StatusCode: 503, After: c.retryAfter}
				})
				elapsed = time.Since(start)
			})
			if int64(attempts) != r.Calls {
				t.Errorf("retry.Do made %d attempts, the simulator %d", attempts, r.Calls)
			}
			if want := elapsed + time.Duration(attempts)*time.Millisecond; r.Completion != want {
				t.Errorf("retry.Do took %v (+%dms), the simulator %v", elapsed, attempts, r.Completion)
			}
			var re *retry.Error
			switch {
			case errors.As(err, &re) && re.Reason == retry.ErrBudgetExhausted:
				if r.GiveUpBudget != 1 {
					t.Errorf("retry.Do: %v; simulator give-ups %+v", err, r)
				}
			case errors.As(err, &re) && re.Reason == retry.ErrRetryAfterTooLong:
				if r.GiveUpRetryAfter != 1 {
					t.Errorf("retry.Do: %v; simulator give-ups %+v", err, r)
				}
			case errors.As(err, &re) && re.Reason == retry.ErrAttemptsExhausted:
				if r.GiveUpAttempts != 1 {
					t.Errorf("retry.Do: %v; simulator give-ups %+v", err, r)
				}
			default:
				t.Errorf("retry.Do: unexpected %v", err)
			}
		})
	}
}

// TestDeterministic: the same seed gives the same result, another seed a
// different one.
func TestDeterministic(t *testing.T) {
	s, shape := preset(t, "outage", 5000, 3)
	c := refClient(t, "full", shape)
	a, b := mustRun(t, s, c), mustRun(t, s, c)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("two runs with the same seed differ")
	}
	s.Seed = 4
	if d := mustRun(t, s, c); reflect.DeepEqual(a.Series, d.Series) {
		t.Fatal("runs with seeds 3 and 4 have the same time series")
	}
}
