package ownlife

import (
	"context"
	"time"
)

type spanKey struct{}

// span is the current unit of work; its tracer may want to see every
// context it is put into.
type span interface{ Tracer() any }

type attachHook interface {
	OnAttach(ctx context.Context, s span) context.Context
}

// withSpan puts s onto ctx, telling s's tracer when it wants to know.
func withSpan(ctx context.Context, s span) context.Context {
	if h, ok := s.Tracer().(attachHook); ok {
		ctx = h.OnAttach(ctx, s)
	}
	return context.WithValue(ctx, spanKey{}, s)
}

// carryTrace puts src's span, if any, onto dst: not known to derive by
// values only (the hook may do anything), but it returns the context it
// built.
func carryTrace(dst, src context.Context) context.Context {
	ctx := dst
	if s, ok := src.Value(spanKey{}).(span); ok {
		ctx = withSpan(ctx, s)
	}
	return ctx
}

// forward is detached from the caller on purpose, keeps its trace, and is
// bounded by a timeout of its own: the Background's context is given its
// lifetime at once. Not reported.
func forward(ctx context.Context, budget time.Duration) error {
	ctx, cancel := context.WithTimeout(carryTrace(context.Background(), ctx), budget)
	defer cancel()
	return query(ctx, "replicate")
}

// forwardUnbounded gives the copy no lifetime of its own: reported.
func forwardUnbounded(ctx context.Context) error {
	return query(carryTrace(context.Background(), ctx), "replicate") // want `context.Background\(\) drops the deadline and cancellation of ctx`
}
