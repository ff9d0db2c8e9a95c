package detach

import (
	"context"
	"sync"
)

// inBatches runs f on each batch, stopping early once ctx is done.
func inBatches(ctx context.Context, n, size int, f func(start, end int) error) error {
	var wg sync.WaitGroup
	for start := 0; start < n; start += size {
		if err := ctx.Err(); err != nil {
			return err
		}
		wg.Add(1)
		go func(s, e int) {
			defer wg.Done()
			_ = f(s, e)
		}(start, min(start+size, n))
	}
	wg.Wait()
	return nil
}

// withConn runs f with the context it is given.
func withConn(ctx context.Context, f func(ctx context.Context) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return f(ctx)
}

func getBatch(ctx context.Context, keys []string) ([]string, error) { return keys, ctx.Err() }

// Every batch must run so that each sends its one result: the scheduler
// gets Background, and each batch's work runs under the caller's ctx in
// the closure. Nothing is dropped.
func getAll(ctx context.Context, keys []string) []string {
	n := (len(keys) + 9) / 10
	results := make(chan []string, n)
	_ = inBatches(context.Background(), len(keys), 10, func(s, e int) error {
		got, err := getBatch(ctx, keys[s:e])
		results <- got
		return err
	})
	var out []string
	for range n {
		out = append(out, <-results...)
	}
	return out
}

// The near miss: the closure's ctx is its own parameter, the Background
// the call hands it.
func load(ctx context.Context, keys []string) error {
	return withConn(context.Background(), func(ctx context.Context) error { // want `context.Background\(\) drops the deadline and cancellation of ctx`
		_, err := getBatch(ctx, keys)
		return err
	})
}

// A local of the same name is no caller's context.
var root = context.Background()

func loadShadowed(ctx context.Context, keys []string) error {
	{
		ctx := root
		return inBatches(context.Background(), len(keys), 10, func(s, e int) error { // want `context.Background\(\) drops the deadline and cancellation of ctx`
			_, err := getBatch(ctx, keys[s:e])
			return err
		})
	}
}
