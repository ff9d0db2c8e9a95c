// Package trace is a stub of OpenTelemetry's trace API for tests: a
// Tracer starts spans on a context, which carries them as values.
package trace

import "context"

type SpanContext struct{ traceID, spanID [8]byte }

type SpanStartOption interface{ applySpanStart() }

type SpanEndOption interface{ applySpanEnd() }

type Span interface {
	End(options ...SpanEndOption)
	SpanContext() SpanContext
}

type Tracer interface {
	Start(ctx context.Context, spanName string, opts ...SpanStartOption) (context.Context, Span)
}

type spanKey struct{}

func ContextWithSpan(parent context.Context, span Span) context.Context {
	return context.WithValue(parent, spanKey{}, span)
}

func ContextWithSpanContext(parent context.Context, sc SpanContext) context.Context {
	return context.WithValue(parent, spanKey{}, sc)
}

func SpanFromContext(ctx context.Context) Span {
	s, _ := ctx.Value(spanKey{}).(Span)
	return s
}
