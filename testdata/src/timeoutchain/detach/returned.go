package detach

import "context"

type hopKey struct{}
type callerKey struct{}

func withHop(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, hopKey{}, id)
}

func withCaller(ctx context.Context, u string) context.Context {
	return context.WithValue(ctx, callerKey{}, u)
}

func hopOf(ctx context.Context) string    { s, _ := ctx.Value(hopKey{}).(string); return s }
func callerOf(ctx context.Context) string { s, _ := ctx.Value(callerKey{}).(string); return s }

// detached copies ctx's ids onto a context that is never cancelled (a
// hand-made context.WithoutCancel) and returns it: nothing runs under it
// here, its callers decide. Not reported, as `return
// withHop(context.Background(), id)` is not.
func copiedIDs(ctx context.Context) context.Context {
	out := withHop(context.Background(), hopOf(ctx))
	out = withCaller(out, callerOf(ctx))
	return out
}

// The near miss: the same context is also given to a call here.
func (s *memStore) detachedFetch(ctx context.Context, url string) (context.Context, error) {
	out := withHop(context.Background(), hopOf(ctx)) // want `context.Background\(\) drops the deadline and cancellation of ctx`
	out = withCaller(out, callerOf(ctx))
	_, err := newFetched(out, url)
	return out, err
}
