package fits

import (
	"context"
	"time"
)

type payer struct{}

func (p *payer) charge(ctx context.Context) error { return nil }

// attempt sets 5s on the context it is given.
func (p *payer) attempt(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	return p.charge(ctx)
}

// The per-attempt timeout is set by the function each attempt calls.
func (p *payer) chargeViaMethod(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	var err error
	for i := 0; i < 3; i++ { // want `3 attempts × 5s per attempt = 15s do not fit in the 10s deadline`
		if err = p.attempt(ctx); err == nil {
			return nil
		}
	}
	return err
}

// The same timeout set in a closure the loop calls.
func (p *payer) chargeViaClosure(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	try := func() error {
		actx, acancel := context.WithTimeout(ctx, 5*time.Second)
		defer acancel()
		return p.charge(actx)
	}
	var err error
	for i := 0; i < 3; i++ { // want `3 attempts × 5s per attempt = 15s do not fit in the 10s deadline`
		if err = try(); err == nil {
			return nil
		}
	}
	return err
}

// A closure the loop calls, which calls the function that sets it.
func (p *payer) chargeViaClosureCall(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	try := func() error { return p.attempt(ctx) }
	var err error
	for i := 0; i < 3; i++ { // want `3 attempts × 5s per attempt = 15s do not fit in the 10s deadline`
		if err = try(); err == nil {
			return nil
		}
	}
	return err
}

// Near miss: three attempts of 3s fit in 10s.
func (p *payer) chargeFits(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	try := func() error {
		actx, acancel := context.WithTimeout(ctx, 3*time.Second)
		defer acancel()
		return p.charge(actx)
	}
	var err error
	for i := 0; i < 3; i++ {
		if err = try(); err == nil {
			return nil
		}
	}
	return err
}
