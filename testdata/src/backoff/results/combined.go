package results

import (
	"context"
	"errors"
	"net/http"
	"time"
)

type workspace struct{ Ready bool }

type api struct{ hc *http.Client }

func (a *api) workspace(ctx context.Context, id string) (*workspace, error) {
	return nil, errors.New("down")
}

// The success test combines the error with the result: an empty answer
// goes round as a failure does, so the loop retries the call.
func (a *api) errFirst(ctx context.Context, id string) (*workspace, error) {
	for i := 0; i < 5; i++ {
		ws, err := a.workspace(ctx, id)
		if err == nil && ws != nil {
			return ws, nil
		}
		time.Sleep(2 * time.Second) // want `retry delay has no jitter`
	}
	return nil, errors.New("no workspace")
}

// The same test negated, going round with continue.
func (a *api) orContinue(ctx context.Context, id string) (*workspace, error) {
	for i := 0; i < 5; i++ {
		ws, err := a.workspace(ctx, id)
		if err != nil || ws == nil {
			time.Sleep(time.Second) // want `retry delay has no jitter`
			continue
		}
		return ws, nil
	}
	return nil, errors.New("no workspace")
}

// An HTTP response tested for nil and for its status with the error.
func (a *api) status(ctx context.Context, url string) (*http.Response, error) {
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return nil, err
		}
		resp, err := a.hc.Do(req)
		if err == nil && resp != nil && resp.StatusCode == http.StatusOK {
			return resp, nil
		}
		if resp != nil {
			resp.Body.Close()
		}
		time.Sleep(time.Second) // want `retry delay has no jitter`
	}
	return nil, errors.New("unavailable")
}

// The near miss: a failure ends the loop and only the empty answer goes
// round, a poll until the workspace is there.
func (a *api) untilCreated(ctx context.Context, id string) (*workspace, error) {
	for i := 0; i < 5; i++ {
		ws, err := a.workspace(ctx, id)
		if err != nil {
			return nil, err
		}
		if ws != nil {
			return ws, nil
		}
		time.Sleep(2 * time.Second)
	}
	return nil, errors.New("not created")
}

// The near miss: a field of a successful answer goes round, a poll of
// the workspace's state.
func (a *api) untilReady(ctx context.Context, id string) (*workspace, error) {
	for i := 0; i < 5; i++ {
		ws, err := a.workspace(ctx, id)
		if err != nil {
			return nil, err
		}
		if ws.Ready {
			return ws, nil
		}
		time.Sleep(2 * time.Second)
	}
	return nil, errors.New("not ready")
}

// The result tested before the error: an empty answer or a failure goes
// round, the loop retries the call.
func (a *api) resultFirst(ctx context.Context, id string) (*workspace, error) {
	for i := 0; i < 5; i++ {
		ws, err := a.workspace(ctx, id)
		if ws == nil || err != nil {
			time.Sleep(3 * time.Second) // want `retry delay has no jitter`
			continue
		}
		return ws, nil
	}
	return nil, errors.New("no workspace")
}

// An HTTP response tested for nil before its error: nil exactly when
// the send failed, so the failures go round.
func (a *api) responseFirst(ctx context.Context, url string) (*http.Response, error) {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		var req *http.Request
		req, err = http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if req == nil || err != nil {
			return nil, errors.New("bad request")
		}
		var resp *http.Response
		resp, err = a.hc.Do(req)
		if resp == nil || err != nil {
			time.Sleep(time.Second) // want `retry delay has no jitter`
			continue
		}
		if resp.StatusCode >= 500 {
			resp.Body.Close()
			time.Sleep(time.Second)
			continue
		}
		return resp, nil
	}
	return nil, err
}

// The near miss: the result tested first, and only an empty success
// goes round, a poll until the workspace is there.
func (a *api) emptyFirst(ctx context.Context, id string) (*workspace, error) {
	for i := 0; i < 5; i++ {
		ws, err := a.workspace(ctx, id)
		if ws == nil && err == nil {
			time.Sleep(3 * time.Second)
			continue
		}
		return ws, err
	}
	return nil, errors.New("no workspace")
}
