// Package gobreaker is a stub of github.com/sony/gobreaker/v2 for tests.
package gobreaker

import (
	"errors"
	"time"
)

var (
	ErrTooManyRequests = errors.New("too many requests")
	ErrOpenState       = errors.New("circuit breaker is open")
)

type Counts struct{ Requests, TotalFailures, ConsecutiveFailures uint32 }

type Settings struct {
	Name        string
	MaxRequests uint32
	Interval    time.Duration
	Timeout     time.Duration
	ReadyToTrip func(counts Counts) bool
}

type CircuitBreaker[T any] struct{}

func NewCircuitBreaker[T any](st Settings) *CircuitBreaker[T] { return &CircuitBreaker[T]{} }

func (cb *CircuitBreaker[T]) Execute(req func() (T, error)) (T, error) { return req() }

type TwoStepCircuitBreaker[T any] struct{}

func NewTwoStepCircuitBreaker[T any](st Settings) *TwoStepCircuitBreaker[T] {
	return &TwoStepCircuitBreaker[T]{}
}

func (tscb *TwoStepCircuitBreaker[T]) Allow() (done func(err error), err error) {
	return func(error) {}, nil
}

type State int

const (
	StateClosed State = iota
	StateHalfOpen
	StateOpen
)

func (cb *CircuitBreaker[T]) State() State { return StateClosed }
