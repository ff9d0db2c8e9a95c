package retry

import (
	"context"
	"errors"
	"testing"
	"time"
)

func BenchmarkDoSuccess(b *testing.B) {
	ctx := context.Background()
	p := &Policy{}
	op := func(context.Context) error { return nil }
	b.ReportAllocs()
	for b.Loop() {
		_ = Do(ctx, p, op)
	}
}

func BenchmarkDoValueSuccess(b *testing.B) {
	ctx := context.Background()
	p := &Policy{}
	op := func(context.Context) (int, error) { return 1, nil }
	b.ReportAllocs()
	for b.Loop() {
		_, _ = DoValue(ctx, p, op)
	}
}

func BenchmarkDoSuccessWithBudget(b *testing.B) {
	ctx := context.Background()
	budget, _ := NewBudget(BudgetConfig{})
	p := &Policy{Budget: budget}
	op := func(context.Context) error { return nil }
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			_ = Do(ctx, p, op)
		}
	})
}

func BenchmarkDoFailTwice(b *testing.B) {
	ctx := context.Background()
	//resilint:ignore backoff the test needs exact, deterministic delays
	p := &Policy{BaseDelay: time.Nanosecond, MaxDelay: time.Nanosecond, Jitter: JitterNone}
	errFail := errors.New("fail")
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		_ = Do(ctx, p, func(context.Context) error {
			n++
			if n < 3 {
				return errFail
			}
			return nil
		})
	}
}
