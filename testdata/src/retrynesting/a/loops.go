package a

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	rt "github.com/resilint/resilint/runtime/retry"
)

// maxAttempts bounds loopConst's retry and is used nowhere else: the fix
// sets it to one attempt where it is declared.
const maxAttempts = 3

func loopConst(ctx context.Context) error {
	var err error
	for attempt := 1; attempt <= maxAttempts; attempt++ { // want `nested retry: retry loop makes 3 attempts, each reaching fetchPrice`
		if err = fetchPrice(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Duration(attempt) * 100 * time.Millisecond)
	}
	return err
}

// sharedAttempts is used by two loops: the fix changes the bound in the
// loop's header, not the constant.
const sharedAttempts = 4

func loopShared(ctx context.Context) error {
	var err error
	for i := 0; i < sharedAttempts; i++ { // want `nested retry: retry loop makes 4 attempts, each reaching fetchStock`
		if err = fetchStock(ctx); err == nil {
			return nil
		}
	}
	return err
}

func loopShared2(ctx context.Context) error {
	var err error
	for i := 0; sharedAttempts > i; i++ { // want `nested retry: retry loop makes 4 attempts, each reaching fetchStock`
		if err = fetchStock(ctx); err == nil {
			return nil
		}
	}
	return err
}

// Near miss of the fix: the attempt also makes a call that does not retry
// by itself (json.Marshal here stands for any fallible step); one attempt
// would stop retrying it. Reported, no fix.
func loopOtherCall(ctx context.Context, v any) error {
	var err error
	for i := 0; i < 3; i++ { // want `nested retry: retry loop makes 3 attempts, each reaching fetchPrice`
		if _, err = json.Marshal(v); err != nil {
			continue
		}
		if err = fetchPrice(ctx); err == nil {
			return nil
		}
	}
	return err
}

// Near miss of the fix: the counter is also advanced in the body, so the
// header alone does not give the attempts. Reported, no fix.
func loopSkips(ctx context.Context) error {
	var err error
	for i := 0; i < 6; i++ { // want `nested retry: retry loop makes`
		if err = fetchPrice(ctx); err == nil {
			return nil
		}
		i++
	}
	return err
}

// Near miss of the fix: an error the loop builds (errors, fmt) and the
// context's Err are not operations; the wait is the loop's own. Fixed.
func loopWaits(ctx context.Context) error {
	var err error
	for range 3 { // want `nested retry: retry loop makes 3 attempts, each reaching fetchPrice`
		if err = fetchPrice(ctx); err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return fmt.Errorf("giving up: %w", ctx.Err())
		}
		if err := rt.Sleep(ctx, time.Second); err != nil {
			return err
		}
	}
	return err
}

// drainer retries in a goroutine of its own, started at most once.
type drainer struct{ draining bool }

func (d *drainer) drain(ctx context.Context) {
	for i := 0; i < 3; i++ {
		if call(ctx) == nil {
			return
		}
	}
}

func (d *drainer) kick(ctx context.Context) {
	if !d.draining {
		d.draining = true
		go d.drain(ctx)
	}
}

// A goroutine started from an attempt runs beside it, not in it: no
// nested retry.
func startsDrain(ctx context.Context, d *drainer) error {
	var err error
	for i := 0; i < 3; i++ {
		d.kick(ctx)
		if err = call(ctx); err == nil {
			return nil
		}
	}
	return err
}

// The same retry called in the attempt is nested.
func runsDrain(ctx context.Context, d *drainer) error {
	var err error
	for i := 0; i < 3; i++ { // want `nested retry: retry loop makes 3 attempts, each reaching \(\*drainer\).drain`
		d.drain(ctx)
		if err = call(ctx); err == nil {
			return nil
		}
	}
	return err
}
