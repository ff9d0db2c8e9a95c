package retry

import (
	"context"
	"math"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilint/resilint/runtime/internal/assert"
	"github.com/resilint/resilint/runtime/internal/require"
)

func TestNewBudgetValidates(t *testing.T) {
	bad := []BudgetConfig{
		{Ratio: math.NaN()},
		{Ratio: math.Inf(1)},
		{Ratio: -0.1},
		{Ratio: 1.5},
		{Ratio: 1e-9},
		{MaxTokens: math.NaN()},
		{MaxTokens: -1},
		{MaxTokens: 0.5},
		{MaxTokens: 1e13},
		{MaxTokens: math.Inf(1)},
		{MinRetriesPerSecond: math.NaN()},
		{MinRetriesPerSecond: -1},
		{MinRetriesPerSecond: math.Inf(1)},
	}
	for _, cfg := range bad {
		b, err := NewBudget(cfg)
		assert.Nil(t, b)
		var ce *ConfigError
		assert.ErrorAs(t, err, &ce, "%+v", cfg)
	}
	_, err := NewBudget(BudgetConfig{Ratio: math.NaN(), MaxTokens: -1})
	assert.ErrorContains(t, err, "retry: invalid BudgetConfig.Ratio NaN")
	assert.ErrorContains(t, err, "retry: invalid BudgetConfig.MaxTokens -1")

	for _, cfg := range []BudgetConfig{{}, {Ratio: 1, MaxTokens: 1}, {Ratio: 0.01, MaxTokens: 1e12, MinRetriesPerSecond: 1e9}, {NoFloor: true}} {
		_, err := NewBudget(cfg)
		assert.NoError(t, err, "%+v", cfg)
	}
}

func TestBudgetRatio(t *testing.T) {
	b, err := NewBudget(BudgetConfig{Ratio: 0.25, MaxTokens: 2, NoFloor: true})
	require.NoError(t, err)
	assert.False(t, b.TryWithdraw(), "starts empty")
	for range 3 {
		b.Deposit()
	}
	assert.InDelta(t, 0.75, b.Balance(), 1e-9)
	assert.False(t, b.TryWithdraw())
	b.Deposit()
	assert.True(t, b.TryWithdraw(), "four requests buy one retry")
	assert.False(t, b.TryWithdraw())
	for range 100 {
		b.Deposit()
	}
	assert.InDelta(t, 2, b.Balance(), 1e-9, "capped at MaxTokens")
	assert.True(t, b.TryWithdraw())
	assert.True(t, b.TryWithdraw())
	assert.False(t, b.TryWithdraw())
}

func TestBudgetFloor(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b, err := NewBudget(BudgetConfig{MinRetriesPerSecond: 2})
		require.NoError(t, err)
		assert.True(t, b.TryWithdraw(), "the floor allows retries with nothing saved")
		assert.True(t, b.TryWithdraw())
		assert.False(t, b.TryWithdraw())
		time.Sleep(500 * time.Millisecond)
		assert.True(t, b.TryWithdraw(), "refills at 2 per second")
		assert.False(t, b.TryWithdraw())
		time.Sleep(time.Hour)
		assert.True(t, b.TryWithdraw())
		assert.True(t, b.TryWithdraw())
		assert.False(t, b.TryWithdraw(), "the floor's burst is one second's worth")

		// The zero Budget is the default config: ratio 0.2, floor 10/s.
		var z Budget
		for range 10 {
			assert.True(t, z.TryWithdraw())
		}
		assert.False(t, z.TryWithdraw())
		for range 5 {
			z.Deposit()
		}
		assert.True(t, z.TryWithdraw())
	})
}

func TestDoBudget(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b, err := NewBudget(BudgetConfig{Ratio: 0.5, NoFloor: true})
		require.NoError(t, err)
		p := &Policy{MaxAttempts: 5, Budget: b}
		calls := 0
		// One call deposits half a token: no retry, the first failure returns.
		err = Do(t.Context(), p, failing(100, errBoom, &calls))
		assert.Equal(t, 1, calls)
		assert.ErrorIs(t, err, ErrBudgetExhausted)
		assert.ErrorIs(t, err, errBoom)
		var re *Error
		require.ErrorAs(t, err, &re)
		assert.Equal(t, 1, re.Attempts)

		// A second call makes a whole token: one retry.
		calls = 0
		err = Do(t.Context(), p, failing(100, errBoom, &calls))
		assert.Equal(t, 2, calls)
		assert.ErrorIs(t, err, ErrBudgetExhausted)

		// Successes fill the budget again.
		for range 6 {
			require.NoError(t, Do(t.Context(), p, func(context.Context) error { return nil }))
		}
		calls = 0
		assert.NoError(t, Do(t.Context(), p, failing(3, errBoom, &calls)))
		assert.Equal(t, 4, calls)
	})
}

func TestBudgetConcurrent(t *testing.T) {
	b, err := NewBudget(BudgetConfig{Ratio: 0.5, MaxTokens: 1e6, NoFloor: true})
	require.NoError(t, err)
	var wg sync.WaitGroup
	var mu sync.Mutex
	granted := 0
	for range 8 {
		wg.Go(func() {
			for range 1000 {
				b.Deposit()
				if b.TryWithdraw() {
					mu.Lock()
					granted++
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	// 8000 deposits of half a token: exactly 4000 tokens, none lost or made.
	assert.InDelta(t, 4000, float64(granted)+b.Balance(), 1e-6)
	assert.LessOrEqual(t, granted, 4000)
}
