package donevar

import (
	"context"
	"time"
)

// The timer's channel kept in a variable before the select still races
// ctx.Done(): the wait ends when the context does.
func afterInVariable(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		wake := time.After(time.Second)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-wake:
		}
	}
	return err
}

// Declared with var, and a timer's C copied out.
func timerChannelInVariable(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		var first <-chan time.Time = time.After(time.Second)
		t := time.NewTimer(2 * time.Second)
		tc := t.C
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-first:
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tc:
		}
	}
	return err
}

// Near miss: the timer in a variable, selected with another channel only.
func afterInVariableNoDone(ctx context.Context, stop <-chan struct{}) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		wake := time.After(time.Second) // want `the retry loop waits without watching ctx`
		select {
		case <-stop:
			return err
		case <-wake:
		}
	}
	return err
}

// A sleep in the else of `if ctx.Done() != nil`, or in the nil case of a
// switch on the Done channel, runs only when nothing can cancel.
func sleepsInElseOfLive(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		if ctx.Done() != nil {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(time.Second):
			}
		} else {
			time.Sleep(time.Second)
		}
	}
	return err
}

func sleepsInNilCase(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		switch done := ctx.Done(); done {
		case nil:
			time.Sleep(time.Second)
		default:
			select {
			case <-done:
				return ctx.Err()
			case <-time.After(time.Second):
			}
		}
	}
	return err
}

// Near misses: the sleep where the context can be cancelled.
func sleepsInElseOfNil(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		if ctx.Done() == nil {
			time.Sleep(time.Second)
		} else {
			time.Sleep(2 * time.Second) // want `the retry loop waits without watching ctx`
		}
	}
	return err
}

func sleepsInDefaultCase(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		switch ctx.Done() {
		case nil:
		default:
			time.Sleep(time.Second) // want `the retry loop waits without watching ctx`
		}
	}
	return err
}

// Near miss: the timer is selected with ctx.Done() on one path only; the
// other receives it bare.
func halfWatched(ctx context.Context, urgent bool) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		wake := time.After(time.Second) // want `the retry loop waits without watching ctx`
		if urgent {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-wake:
			}
		} else {
			<-wake
		}
	}
	return err
}

type worker struct{ life context.Context }

// Near misses: the Done channel tested is another context's (the
// worker's lifetime), and a case that falls through into the nil case.
func (w *worker) sleepsInElseOfOther(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		if w.life.Done() != nil {
			select {
			case <-w.life.Done():
				return w.life.Err()
			case <-time.After(time.Second):
			}
		} else {
			time.Sleep(2 * time.Second) // want `the retry loop waits without watching ctx`
		}
	}
	return err
}

func sleepsAfterFallthrough(ctx context.Context, quick bool) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		switch ctx.Done() {
		default:
			if quick {
				continue
			}
			fallthrough
		case nil:
			time.Sleep(time.Second) // want `the retry loop waits without watching ctx`
		}
	}
	return err
}
