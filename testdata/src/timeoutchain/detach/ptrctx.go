package detach

import "context"

type hooks struct {
	onStart func(*context.Context) func(error)
}

// A pointer to a context is no context: the layer that asks whether a
// function bounds its context parameter must not take it for one (it
// panicked on ydb-go-sdk's trace hooks, which take *context.Context and
// return what to call when the operation ends).
func onStart(h *hooks, pctx *context.Context) func(error) {
	if h == nil || h.onStart == nil {
		return func(error) {}
	}
	return h.onStart(pctx)
}

func traced(ctx context.Context, h *hooks, op func(context.Context) error) error {
	done := onStart(h, &ctx)
	err := op(ctx)
	done(err)
	return err
}
