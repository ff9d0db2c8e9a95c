// Package backoff is a stub of cenkalti/backoff before its
// module paths (v2 and earlier, +incompatible): Retry with a BackOff
// value, WithMaxRetries (0 is no bound) and WithContext.
package backoff

import (
	"context"
	"time"
)

const Stop time.Duration = -1

type BackOff interface {
	NextBackOff() time.Duration
	Reset()
}

type Operation func() error

type Notify func(error, time.Duration)

type ExponentialBackOff struct {
	InitialInterval     time.Duration
	RandomizationFactor float64
	Multiplier          float64
	MaxInterval         time.Duration
	MaxElapsedTime      time.Duration
}

func NewExponentialBackOff() *ExponentialBackOff {
	return &ExponentialBackOff{InitialInterval: 500 * time.Millisecond, RandomizationFactor: 0.5, Multiplier: 1.5, MaxInterval: time.Minute, MaxElapsedTime: 15 * time.Minute}
}

func (b *ExponentialBackOff) Reset()                     {}
func (b *ExponentialBackOff) NextBackOff() time.Duration { return b.InitialInterval }

type ZeroBackOff struct{}

func (b *ZeroBackOff) Reset()                     {}
func (b *ZeroBackOff) NextBackOff() time.Duration { return 0 }

type ConstantBackOff struct{ Interval time.Duration }

func NewConstantBackOff(d time.Duration) *ConstantBackOff { return &ConstantBackOff{Interval: d} }

func (b *ConstantBackOff) Reset()                     {}
func (b *ConstantBackOff) NextBackOff() time.Duration { return b.Interval }

type tries struct {
	b        BackOff
	max, now uint64
}

func (t *tries) Reset() { t.now = 0; t.b.Reset() }
func (t *tries) NextBackOff() time.Duration {
	if t.max > 0 {
		if t.now >= t.max {
			return Stop
		}
		t.now++
	}
	return t.b.NextBackOff()
}

func WithMaxRetries(b BackOff, max uint64) BackOff { return &tries{b: b, max: max} }

type BackOffContext interface {
	BackOff
	Context() context.Context
}

type withCtx struct {
	BackOff
	ctx context.Context
}

func (w withCtx) Context() context.Context { return w.ctx }

func WithContext(b BackOff, ctx context.Context) BackOffContext { return withCtx{b, ctx} }

type PermanentError struct{ Err error }

func (e *PermanentError) Error() string { return e.Err.Error() }

func Permanent(err error) *PermanentError { return &PermanentError{Err: err} }

func Retry(o Operation, b BackOff) error { return RetryNotify(o, b, nil) }

func RetryNotify(o Operation, b BackOff, notify Notify) error {
	for {
		err := o()
		if err == nil {
			return nil
		}
		d := b.NextBackOff()
		if d == Stop {
			return err
		}
		if notify != nil {
			notify(err, d)
		}
		time.Sleep(d)
	}
}
