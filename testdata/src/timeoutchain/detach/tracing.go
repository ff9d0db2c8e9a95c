package detach

import (
	"context"
	"net/http"
	"runtime/trace"

	"go.opentelemetry.io/otel/propagation"
	oteltrace "go.opentelemetry.io/otel/trace"
)

// A trace task put on a fresh context only carries values: the task is
// logged and ended, nothing runs under the context. Not reported.
func taskProfile(w http.ResponseWriter, r *http.Request) {
	ctx, task := trace.NewTask(context.Background(), "profile")
	defer task.End()
	trace.Log(ctx, "profile", "started")
	trace.WithRegion(ctx, "step", func() {})
}

// The near miss: the task's context goes on to a request, which runs
// under it without the handler's deadline and cancellation.
func taskFetch(w http.ResponseWriter, r *http.Request) {
	ctx, task := trace.NewTask(context.Background(), "fetch") // want `context.Background\(\) drops`
	defer task.End()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://backend/items", nil)
	if err != nil {
		return
	}
	if resp, err := http.DefaultClient.Do(req); err == nil {
		resp.Body.Close()
	}
}

type relay struct {
	tracer oteltrace.Tracer
	prop   propagation.TextMapPropagator
}

// A span on a context made from a message's headers: values only,
// ended at once. Not reported.
func (rl *relay) note(ctx context.Context, headers map[string]string) {
	sctx := rl.prop.Extract(context.Background(), propagation.MapCarrier(headers))
	_, span := rl.tracer.Start(sctx, "note")
	span.End()
}

// The near miss: the span's context is given to a request.
func (rl *relay) forward(ctx context.Context, headers map[string]string) error {
	sctx, span := rl.tracer.Start(context.Background(), "forward") // want `context.Background\(\) drops`
	defer span.End()
	req, err := http.NewRequestWithContext(sctx, http.MethodPost, "http://backend/events", nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
