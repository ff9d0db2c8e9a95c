// Package hystrix is a stub of github.com/afex/hystrix-go/hystrix for tests.
package hystrix

import "context"

type CircuitError struct{ Message string }

func (e CircuitError) Error() string { return "hystrix: " + e.Message }

var (
	ErrMaxConcurrency = CircuitError{Message: "max concurrency"}
	ErrCircuitOpen    = CircuitError{Message: "circuit open"}
	ErrTimeout        = CircuitError{Message: "timeout"}
)

type runFunc func() error
type fallbackFunc func(error) error
type runFuncC func(context.Context) error
type fallbackFuncC func(context.Context, error) error

func Go(name string, run runFunc, fallback fallbackFunc) chan error { return nil }
func GoC(ctx context.Context, name string, run runFuncC, fallback fallbackFuncC) chan error {
	return nil
}
func Do(name string, run runFunc, fallback fallbackFunc) error { return run() }
func DoC(ctx context.Context, name string, run runFuncC, fallback fallbackFuncC) error {
	return run(ctx)
}
