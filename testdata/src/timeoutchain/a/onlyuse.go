package a

import (
	"context"
	"time"
)

// The dropped argument holds the file's only use of time: no fix (the
// import would be left unused).
func onlyUse(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, requestBudget)
	defer cancel()
	ctx2, cancel2 := context.WithTimeout(ctx, 5*time.Second) // want `context.WithTimeout sets a 5s timeout on a context that has at most 2s left`
	defer cancel2()
	return call(ctx2)
}
