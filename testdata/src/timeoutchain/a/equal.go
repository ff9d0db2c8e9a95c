package a

import (
	"context"
	"time"

	"timeoutchain/svc"
)

// The near misses: svc.Fetch caps every caller's context at 5s, and this
// caller gives it the same 5s: the cap is the caller's own budget, not a
// longer one that never applies. The same holds for a timeout set here.
func sameBudget(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	return svc.Fetch(ctx)
}

func sameHere(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	ctx2, cancel2 := context.WithTimeout(ctx, 2*time.Second)
	defer cancel2()
	return call(ctx2)
}

// A budget just under the cap is still reported.
func justUnder(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 4900*time.Millisecond)
	defer cancel()
	return svc.Fetch(ctx) // want `svc.Fetch \(context.WithTimeout at svc.go:\d+\) sets a 5s timeout on a context that has at most 4.9s left`
}
