// Package timer gives contexts lifetimes of their own, on a clock the
// caller may replace.
package timer

import (
	"context"
	"time"
)

// AfterFunc returns a channel that delivers once d has passed, or closes
// when ctx is done first.
type AfterFunc func(ctx context.Context, d time.Duration) <-chan time.Time

// Within returns a context that after reports done once d has passed:
// the goroutine cancels it when the timer fires.
func Within(ctx context.Context, after AfterFunc, d time.Duration) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	go func() {
		<-after(ctx, d)
		cancel()
	}()
	return ctx, cancel
}

// Short is a deadline of a tenth of a second.
func Short(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, 100*time.Millisecond)
}

// Linked returns a context cancelled when stop closes: no timer, as long
// as that takes.
func Linked(ctx context.Context, stop <-chan struct{}) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	go func() {
		<-stop
		cancel()
	}()
	return ctx, cancel
}
