package detach

import (
	"context"
	"errors"

	"timeoutchain/svc"
)

type traceKey struct{}

// A Background that only carries values to calls that cannot fail with
// its error, or into a value kept for later, drops nothing of the
// request: followed through context.WithValue and through locals.
type reporter struct {
	queue chan string
	batch *pending
	merge func(a, b context.Context) context.Context
	send  func(ctx context.Context, msg string) error
}

type pending struct {
	ctx  context.Context
	msgs []string
}

// enqueue reads a value of ctx and returns nothing.
func (r *reporter) enqueue(ctx context.Context, msg string) {
	id, _ := ctx.Value(traceKey{}).(string)
	select {
	case r.queue <- id + msg:
	default:
	}
}

func withTrace(parent, from context.Context) context.Context {
	return context.WithValue(parent, traceKey{}, from.Value(traceKey{}))
}

// note hands a value-carrying Background to a call that returns nothing:
// not reported.
func (r *reporter) note(ctx context.Context, msg string) {
	vctx := context.WithValue(context.Background(), traceKey{}, ctx.Value(traceKey{}))
	r.enqueue(vctx, msg)
}

// add roots the pending batch's context, which outlives this call, in
// Background (or in a merge of the callers' when one is set), and keeps
// it in a field: not reported.
func (r *reporter) add(ctx context.Context, msg string) error {
	if r.batch == nil {
		return errors.New("closed")
	}
	root := context.Background()
	if r.merge != nil {
		root = r.merge(r.batch.ctx, ctx)
	}
	r.batch.ctx = withTrace(root, ctx)
	r.batch.msgs = append(r.batch.msgs, msg)
	return nil
}

// deliver sends now, under a value-carrying Background instead of ctx:
// reported.
func (r *reporter) deliver(ctx context.Context, msg string) error {
	vctx := context.WithValue(context.Background(), traceKey{}, ctx.Value(traceKey{})) // want `context.Background\(\) drops the deadline and cancellation of ctx`
	return r.send(vctx, msg)
}

// noteTenant hands a Background carrying a value through another
// package's constructor (svc.WithTenant derives by values only) to a
// call that returns nothing: not reported.
func (r *reporter) noteTenant(ctx context.Context, tenant, msg string) {
	if ctx.Err() != nil {
		return
	}
	r.enqueue(svc.WithTenant(context.Background(), tenant), msg)
}

// deliverTenant sends under it: reported.
func (r *reporter) deliverTenant(ctx context.Context, tenant, msg string) error {
	return r.send(svc.WithTenant(context.Background(), tenant), msg) // want `context.Background\(\) drops the deadline and cancellation of ctx`
}
