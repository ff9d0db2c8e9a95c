// Package backoff is a stub of github.com/cenkalti/backoff/v4 for tests.
package backoff

import (
	"context"
	"time"
)

type BackOff interface {
	NextBackOff() time.Duration
	Reset()
}

type BackOffContext interface {
	BackOff
	Context() context.Context
}

type Operation func() error
type OperationWithData[T any] func() (T, error)
type Notify func(error, time.Duration)
type Timer interface {
	Start(duration time.Duration)
	Stop()
	C() <-chan time.Time
}

const Stop time.Duration = -1

type ExponentialBackOff struct {
	InitialInterval     time.Duration
	RandomizationFactor float64
	Multiplier          float64
	MaxInterval         time.Duration
	MaxElapsedTime      time.Duration
	Stop                time.Duration
}

func (b *ExponentialBackOff) NextBackOff() time.Duration { return 0 }
func (b *ExponentialBackOff) Reset()                     {}

type ExponentialBackOffOpts func(*ExponentialBackOff)

func WithInitialInterval(d time.Duration) ExponentialBackOffOpts { return nil }
func WithRandomizationFactor(f float64) ExponentialBackOffOpts   { return nil }
func WithMultiplier(m float64) ExponentialBackOffOpts            { return nil }
func WithMaxInterval(d time.Duration) ExponentialBackOffOpts     { return nil }
func WithMaxElapsedTime(d time.Duration) ExponentialBackOffOpts  { return nil }

func NewExponentialBackOff(opts ...ExponentialBackOffOpts) *ExponentialBackOff {
	return &ExponentialBackOff{}
}

type ConstantBackOff struct{ Interval time.Duration }

func (b *ConstantBackOff) NextBackOff() time.Duration { return b.Interval }
func (b *ConstantBackOff) Reset()                     {}

func NewConstantBackOff(d time.Duration) *ConstantBackOff { return &ConstantBackOff{Interval: d} }

type ZeroBackOff struct{}

func (b *ZeroBackOff) NextBackOff() time.Duration { return 0 }
func (b *ZeroBackOff) Reset()                     {}

type backOffTries struct{ BackOff }

func WithMaxRetries(b BackOff, max uint64) BackOff { return &backOffTries{b} }

type backOffContext struct{ BackOff }

func (b *backOffContext) Context() context.Context { return nil }

func WithContext(b BackOff, ctx context.Context) BackOffContext { return &backOffContext{b} }

func Retry(o Operation, b BackOff) error                                { return o() }
func RetryWithData[T any](o OperationWithData[T], b BackOff) (T, error) { return o() }
func RetryNotify(operation Operation, b BackOff, notify Notify) error   { return operation() }
func RetryNotifyWithData[T any](o OperationWithData[T], b BackOff, notify Notify) (T, error) {
	return o()
}
func RetryNotifyWithTimer(operation Operation, b BackOff, notify Notify, t Timer) error {
	return operation()
}
func RetryNotifyWithTimerAndData[T any](o OperationWithData[T], b BackOff, notify Notify, t Timer) (T, error) {
	return o()
}

type PermanentError struct{ Err error }

func (e *PermanentError) Error() string { return e.Err.Error() }

func Permanent(err error) error { return &PermanentError{err} }
