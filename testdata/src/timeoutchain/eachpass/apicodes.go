package eachpass

import (
	"context"
	"errors"
	"time"
)

type apiError interface {
	error
	ErrorCode() string
}

func attach(ctx context.Context, volume string) error { return ctx.Err() }

// It goes round only while the API answers that the volume is still
// attached elsewhere, a code no cancelled attempt fails with: after a
// cancellation the next attempt fails otherwise and the loop leaves. Not
// reported.
func attachWhenFree(ctx context.Context, volume string) error {
	for attempt := 0; attempt < 5; attempt++ {
		err := attach(ctx, volume)
		if err == nil {
			return nil
		}
		var ae apiError
		if errors.As(err, &ae) && ae.ErrorCode() == "VolumeInUse" {
			time.Sleep(2 * time.Second)
			continue
		}
		return err
	}
	return errors.New("volume still in use")
}

// Near miss: a timeout code is what an attempt cut short may answer.
// Reported.
func attachOnTimeout(ctx context.Context, volume string) error {
	for attempt := 0; attempt < 5; attempt++ {
		err := attach(ctx, volume)
		if err == nil {
			return nil
		}
		var ae apiError
		if errors.As(err, &ae) && ae.ErrorCode() == "RequestTimeout" {
			time.Sleep(2 * time.Second) // want `the retry loop waits without watching ctx`
			continue
		}
		return err
	}
	return errors.New("volume still in use")
}
