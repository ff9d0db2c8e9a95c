// Package gobreaker is a stub of github.com/sony/gobreaker for tests.
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

type State int

const (
	StateClosed State = iota
	StateHalfOpen
	StateOpen
)

type CircuitBreaker struct{}

func (cb *CircuitBreaker) State() State { return StateClosed }

func NewCircuitBreaker(st Settings) *CircuitBreaker { return &CircuitBreaker{} }

func (cb *CircuitBreaker) Execute(req func() (interface{}, error)) (interface{}, error) {
	return req()
}

type TwoStepCircuitBreaker struct{}

func NewTwoStepCircuitBreaker(st Settings) *TwoStepCircuitBreaker { return &TwoStepCircuitBreaker{} }

func (tscb *TwoStepCircuitBreaker) Allow() (done func(success bool), err error) {
	return func(bool) {}, nil
}
