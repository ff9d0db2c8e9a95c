package ownlife

import (
	"context"
	"time"
)

type drainer struct{ done chan struct{} }

func (d *drainer) run(ctx context.Context) {
	go func() {
		defer close(d.done)
		<-ctx.Done()
	}()
}

// shutdown lets the reader finish its close handshake after the caller
// stops, for a grace period at most: its context is cancelled when the
// timer fires. A lifetime of its own: not reported.
func shutdown(ctx context.Context, stopped <-chan struct{}, grace time.Duration) {
	rctx, stopReader := context.WithCancel(context.Background())
	defer stopReader()
	d := &drainer{done: make(chan struct{})}
	d.run(rctx)
	select {
	case <-stopped:
		select {
		case <-d.done:
		case <-time.After(grace):
			stopReader()
			<-d.done
		}
	case <-ctx.Done():
	}
}

// shutdownOnSignal cancels it when another channel says so, not a timer:
// the context lives as long as that takes, reported.
func shutdownOnSignal(ctx context.Context, stopped, quit <-chan struct{}) {
	rctx, stopReader := context.WithCancel(context.Background()) // want `context.Background\(\) drops the deadline and cancellation of ctx`
	defer stopReader()
	d := &drainer{done: make(chan struct{})}
	d.run(rctx)
	select {
	case <-stopped:
		select {
		case <-d.done:
		case <-quit:
			stopReader()
			<-d.done
		}
	case <-ctx.Done():
	}
}

type object struct{}

// Length answers from what it has, or asks the server under ctx.
func (o *object) Length(ctx context.Context) (int64, error) { return 0, ctx.Err() }

// lengthIfKnown gives a context cancelled before its use: the object
// answers only from what it already has, no request is made. Not
// reported.
func lengthIfKnown(ctx context.Context, o *object) int64 {
	cctx, cancel := context.WithCancel(context.Background())
	cancel()
	n, err := o.Length(cctx)
	if err != nil {
		return -1
	}
	return n
}

// lengthLate cancels it only after the call: the call ran under a live
// Background. Reported.
func lengthLate(ctx context.Context, o *object) int64 {
	cctx, cancel := context.WithCancel(context.Background()) // want `context.Background\(\) drops the deadline and cancellation of ctx`
	n, err := o.Length(cctx)
	cancel()
	if err != nil {
		return -1
	}
	return n
}
