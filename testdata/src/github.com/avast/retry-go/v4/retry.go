// Package retry is a stub of github.com/avast/retry-go/v4 for tests.
package retry

import (
	"context"
	"time"
)

type Config struct{}

type Option func(*Config)

type RetryableFunc func() error
type RetryableFuncWithData[T any] func() (T, error)
type DelayTypeFunc func(n uint, err error, config *Config) time.Duration
type OnRetryFunc func(attempt uint, err error)
type RetryIfFunc func(error) bool

func Do(retryableFunc RetryableFunc, opts ...Option) error { return retryableFunc() }
func DoWithData[T any](retryableFunc RetryableFuncWithData[T], opts ...Option) (T, error) {
	return retryableFunc()
}

func Attempts(attempts uint) Option                         { return nil }
func UntilSucceeded() Option                                { return nil }
func Delay(delay time.Duration) Option                      { return nil }
func MaxDelay(maxDelay time.Duration) Option                { return nil }
func MaxJitter(maxJitter time.Duration) Option              { return nil }
func DelayType(delayType DelayTypeFunc) Option              { return nil }
func OnRetry(onRetry OnRetryFunc) Option                    { return nil }
func RetryIf(retryIf RetryIfFunc) Option                    { return nil }
func Context(ctx context.Context) Option                    { return nil }
func LastErrorOnly(lastErrorOnly bool) Option               { return nil }
func Unrecoverable(err error) error                         { return err }
func BackOffDelay(n uint, _ error, c *Config) time.Duration { return 0 }
func FixedDelay(_ uint, _ error, c *Config) time.Duration   { return 0 }
func RandomDelay(_ uint, _ error, c *Config) time.Duration  { return 0 }
func CombineDelay(delays ...DelayTypeFunc) DelayTypeFunc    { return nil }

func FullJitterBackoffDelay(n uint, err error, c *Config) time.Duration { return 0 }
