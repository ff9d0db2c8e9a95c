// Package fits makes attempts with a per-attempt timeout under a
// deadline too short for all of them. A loop that reads the time it has
// left before each attempt (ctx.Deadline(), time.Until) and stops when
// the next one cannot fit makes only the attempts that fit: not
// reported. One that does not is.
package fits

import (
	"context"
	"errors"
	"time"
)

func call(ctx context.Context) error { return errors.New("unavailable") }

const per = time.Second

// Checked stops when less than one attempt's time is left.
func Checked(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	var err error
	for i := 0; i < 5; i++ {
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < per {
			break
		}
		actx, acancel := context.WithTimeout(ctx, per)
		err = call(actx)
		acancel()
		if err == nil {
			return nil
		}
	}
	return err
}

// Unchecked makes all five: reported.
func Unchecked(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	var err error
	for i := 0; i < 5; i++ { // want `5 attempts × 1s per attempt = 5s do not fit in the 2s deadline`
		actx, acancel := context.WithTimeout(ctx, per)
		err = call(actx)
		acancel()
		if err == nil {
			return nil
		}
	}
	return err
}

// Records reads its deadline only to log it: it decides nothing, and
// makes all five. Reported.
func Records(ctx context.Context, logf func(string, ...any)) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	var err error
	for i := 0; i < 5; i++ { // want `5 attempts × 1s per attempt = 5s do not fit in the 2s deadline`
		actx, acancel := context.WithTimeout(ctx, per)
		dl, _ := actx.Deadline()
		logf("attempt %d until %v", i, dl)
		err = call(actx)
		acancel()
		if err == nil {
			return nil
		}
	}
	return err
}
