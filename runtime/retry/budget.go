package retry

import (
	"errors"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"time"
)

// Defaults for the zero fields of a [BudgetConfig].
const (
	DefaultBudgetRatio         = 0.2
	DefaultBudgetMaxTokens     = 100
	DefaultMinRetriesPerSecond = 10
)

// BudgetConfig configures a [Budget]. The zero value of each field is a
// documented default.
type BudgetConfig struct {
	// Ratio is how many retries each request buys: every call of Do
	// deposits Ratio tokens and every retry takes one, so over time retries
	// stay below Ratio × requests (plus the floor below). Zero means 0.2
	// (at most 20% more load on a failing service). It must be finite and
	// in (0, 1].
	Ratio float64

	// MaxTokens caps the tokens saved from deposits, so that a long healthy
	// stretch does not buy a retry storm later. Zero means 100. It must be
	// finite and at least 1 (at most 1e12).
	MaxTokens float64

	// MinRetriesPerSecond is a floor: that many retries per second are
	// allowed even with no tokens saved, so a service with little traffic
	// can still retry. Zero means 10. It must be finite and at least 0 (at
	// most 1e9); set NoFloor to have none.
	MinRetriesPerSecond float64

	// NoFloor turns the floor off: retries need saved tokens.
	NoFloor bool
}

// Budget is a retry budget shared by many calls, in the manner of gRPC's
// retry throttling and Envoy's retry budgets: retries are allowed only while
// they stay under a ratio of requests, so that when a dependency fails
// outright the retries cannot multiply the load on it. When the budget is
// spent, Do returns the failure instead of retrying (wrapped with
// ErrBudgetExhausted).
//
// A Budget is safe for concurrent use. Deposits and withdrawals are atomic
// operations on one word; only a withdrawal from the floor takes a lock. The
// zero Budget is usable and behaves like NewBudget(BudgetConfig{}). A Budget
// must not be copied after first use.
type Budget struct {
	tokens atomic.Int64 // saved tokens, in units of 1e-6 token

	ratio   int64 // units deposited per request; 0 means the default
	maxUnit int64 // cap on tokens; 0 means the default
	floor   float64
	noFloor bool

	mu         sync.Mutex // guards the floor bucket
	floorLeft  float64
	floorLast  time.Time
	floorStart bool
}

const unit = 1_000_000 // units per token

// NewBudget returns a Budget, or an error made of one [*ConfigError] per
// invalid field (joined with errors.Join) that
// names every bad field.
func NewBudget(cfg BudgetConfig) (*Budget, error) {
	var errs []error
	bad := func(field string, value any, reason string) {
		errs = append(errs, &ConfigError{Field: "BudgetConfig." + field, Value: value, Reason: reason})
	}
	finite := func(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }
	if !finite(cfg.Ratio) || cfg.Ratio < 0 || cfg.Ratio > 1 || (cfg.Ratio > 0 && cfg.Ratio < 1.0/unit) {
		bad("Ratio", cfg.Ratio, fmt.Sprintf("want a number in (0, 1], at least 1e-6 (or 0 for the default, %v)", DefaultBudgetRatio))
	}
	if !finite(cfg.MaxTokens) || cfg.MaxTokens < 0 || (cfg.MaxTokens > 0 && cfg.MaxTokens < 1) || cfg.MaxTokens > 1e12 {
		bad("MaxTokens", cfg.MaxTokens, fmt.Sprintf("want a number in [1, 1e12] (or 0 for the default, %v)", DefaultBudgetMaxTokens))
	}
	if !finite(cfg.MinRetriesPerSecond) || cfg.MinRetriesPerSecond < 0 || cfg.MinRetriesPerSecond > 1e9 {
		bad("MinRetriesPerSecond", cfg.MinRetriesPerSecond, fmt.Sprintf("want a number in [0, 1e9] (0 for the default, %v)", DefaultMinRetriesPerSecond))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return &Budget{
		ratio:   int64(math.Round(cfg.Ratio * unit)),
		maxUnit: int64(math.Round(cfg.MaxTokens * unit)),
		floor:   cfg.MinRetriesPerSecond,
		noFloor: cfg.NoFloor,
	}, nil
}

func (b *Budget) ratioUnits() int64 {
	if b.ratio == 0 {
		return DefaultBudgetRatio * unit
	}
	return b.ratio
}

func (b *Budget) maxUnits() int64 {
	if b.maxUnit == 0 {
		return DefaultBudgetMaxTokens * unit
	}
	return b.maxUnit
}

func (b *Budget) floorRate() float64 {
	if b.floor == 0 {
		return DefaultMinRetriesPerSecond
	}
	return b.floor
}

// Deposit records one request: it adds Ratio tokens, up to MaxTokens. Do
// calls it once per call; call it yourself only for requests made without
// Do that should count. It does not allocate, and when the budget is full it
// only reads.
func (b *Budget) Deposit() {
	r, m := b.ratioUnits(), b.maxUnits()
	for {
		v := b.tokens.Load()
		if v >= m {
			return
		}
		if b.tokens.CompareAndSwap(v, min(v+r, m)) {
			return
		}
	}
}

// TryWithdraw takes the token one retry needs and reports whether there was
// one: first from the saved tokens, then from the floor. Do calls it before
// every retry.
func (b *Budget) TryWithdraw() bool { return b.TryWithdrawAt(time.Now()) }

// TryWithdrawAt is TryWithdraw with the time given, for simulators on virtual
// time; the floor refills by the time elapsed between the calls' now values.
func (b *Budget) TryWithdrawAt(now time.Time) bool {
	for {
		v := b.tokens.Load()
		if v < unit {
			break
		}
		if b.tokens.CompareAndSwap(v, v-unit) {
			return true
		}
	}
	if b.noFloor {
		return false
	}
	rate := b.floorRate()
	burst := max(rate, 1)
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.floorStart {
		b.floorStart, b.floorLeft = true, burst
	} else if elapsed := now.Sub(b.floorLast); elapsed > 0 {
		b.floorLeft = min(burst, b.floorLeft+rate*elapsed.Seconds())
	}
	b.floorLast = now
	if b.floorLeft >= 1 {
		b.floorLeft--
		return true
	}
	return false
}

// Balance returns the tokens saved from deposits (not counting the floor).
func (b *Budget) Balance() float64 {
	return float64(b.tokens.Load()) / unit
}
