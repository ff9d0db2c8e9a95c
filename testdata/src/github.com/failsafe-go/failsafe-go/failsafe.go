// Package failsafe is a stub of github.com/failsafe-go/failsafe-go for tests.
package failsafe

import "context"

type Policy[R any] interface {
	ToExecutor(r R) any
}

type Execution[R any] interface {
	Attempts() int
}

type ExecutionDoneEvent[R any] struct{}

type ExecutionResult[R any] interface {
	Get() (R, error)
}

type Executor[R any] interface {
	Compose(innerPolicy Policy[R]) Executor[R]
	WithContext(ctx context.Context) Executor[R]
	OnDone(listener func(ExecutionDoneEvent[R])) Executor[R]
	OnSuccess(listener func(ExecutionDoneEvent[R])) Executor[R]
	OnFailure(listener func(ExecutionDoneEvent[R])) Executor[R]
	Run(fn func() error) error
	RunWithExecution(fn func(exec Execution[R]) error) error
	Get(fn func() (R, error)) (R, error)
	GetWithExecution(fn func(exec Execution[R]) (R, error)) (R, error)
	RunAsync(fn func() error) ExecutionResult[R]
	GetAsync(fn func() (R, error)) ExecutionResult[R]
}

func With[R any](policies ...Policy[R]) Executor[R] { return nil }
