// Package breaker is a stub of resilint's runtime/breaker for tests.
package breaker

import (
	"context"
	"errors"
)

var (
	ErrOpen          = errors.New("breaker: circuit open")
	ErrTooManyTrials = errors.New("breaker: too many trial calls while half-open")
)

type Config struct{ Name string }

type Breaker struct{}

func New(c Config) (*Breaker, error) { return &Breaker{}, nil }

func (b *Breaker) Do(ctx context.Context, op func(context.Context) error) error { return op(ctx) }

func Execute[T any](ctx context.Context, b *Breaker, op func(context.Context) (T, error)) (T, error) {
	return op(ctx)
}

func (b *Breaker) Allow() (done func(err error), err error) { return func(error) {}, nil }

type State uint32

const (
	StateClosed State = iota
	StateOpen
	StateHalfOpen
)

func (b *Breaker) State() State { return StateClosed }

// rejection is the type of the errors of calls the breaker did not let
// through.
type rejection struct{ msg string }

func (e *rejection) Error() string     { return e.msg }
func (e *rejection) CircuitOpen() bool { return true }
