package detach

import (
	"context"
	"net/http"
)

type worker struct {
	graceful bool
	client   *http.Client
	url      string
}

func (w *worker) work(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.url, nil)
	if err != nil {
		return err
	}
	resp, err := w.client.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// The worker runs its job under the caller's context, or, when it was
// built to shut down gracefully, under one that lets the job finish:
// the code chooses between the two. Not reported.
func (w *worker) runOne(ctx context.Context) error {
	jobCtx := ctx
	if w.graceful {
		jobCtx = context.Background()
	}
	return w.work(jobCtx)
}

// The near miss: the caller's context is never among the choices.
func (w *worker) runDetached(ctx context.Context) error {
	var jobCtx context.Context
	if w.graceful {
		jobCtx = context.Background() // want `context.Background\(\) drops`
	} else {
		jobCtx = context.TODO() // want `context.TODO\(\) drops`
	}
	return w.work(jobCtx)
}
