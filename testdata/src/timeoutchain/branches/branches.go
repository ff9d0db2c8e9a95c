// Package branches: timeouts chosen in the branches of an if or a switch
// are set on the same parent, never on each other.
package branches

import (
	"context"
	"time"
)

func Do(ctx context.Context, fast bool, op func(context.Context) error) error {
	var cancel context.CancelFunc
	if fast {
		ctx, cancel = context.WithTimeout(ctx, time.Second)
	} else {
		ctx, cancel = context.WithTimeout(ctx, 10*time.Second)
	}
	defer cancel()
	return op(ctx)
}

func DoMode(ctx context.Context, mode int, op func(context.Context) error) error {
	var cancel context.CancelFunc
	switch mode {
	case 0:
		ctx, cancel = context.WithTimeout(ctx, time.Second)
	case 1:
		ctx, cancel = context.WithTimeout(ctx, 5*time.Second)
	default:
		ctx, cancel = context.WithCancel(ctx)
	}
	defer cancel()
	return op(ctx)
}

// The near miss: the second timeout follows the first on the same path.
func DoBoth(ctx context.Context, op func(context.Context) error) error {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	ctx, cancel2 := context.WithTimeout(ctx, 10*time.Second) // want `sets a 10s timeout on a context that has at most 1s left`
	defer cancel2()
	return op(ctx)
}
