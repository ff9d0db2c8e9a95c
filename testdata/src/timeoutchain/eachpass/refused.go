package eachpass

import (
	"context"
	"net/http"
	"time"
)

type signer struct{ hc *http.Client }

func (s *signer) call(ctx context.Context, req *http.Request) (*http.Response, error) {
	return s.hc.Do(req.WithContext(ctx))
}

func (s *signer) refresh() {}

// It goes round only on a 401, and the attempt is given ctx: after a
// cancellation the pause under way ends, the next attempt fails at once
// with no response, and the loop leaves. Not reported.
func (s *signer) callRefreshing(ctx context.Context, req *http.Request) (*http.Response, error) {
	var resp *http.Response
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		resp, err = s.call(ctx, req)
		if resp == nil {
			return nil, err
		}
		if resp.StatusCode != http.StatusUnauthorized {
			return resp, err
		}
		s.refresh()
		time.Sleep(time.Second)
	}
	return resp, err
}

// The near misses. The attempt is not given ctx: after a cancellation
// it is still sent, refused again, and waited after.
func (s *signer) callDetached(ctx context.Context, req *http.Request) (*http.Response, error) {
	var resp *http.Response
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		resp, err = s.call(context.WithoutCancel(ctx), req)
		if resp == nil {
			return nil, err
		}
		if resp.StatusCode != http.StatusUnauthorized {
			return resp, err
		}
		s.refresh()
		time.Sleep(time.Second) // want `the retry loop waits without watching ctx`
	}
	return resp, err
}

// It goes round on a 503 too, which a cancelled attempt does not end.
func (s *signer) callUnavailable(ctx context.Context, req *http.Request) (*http.Response, error) {
	var resp *http.Response
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		resp, err = s.call(ctx, req)
		if err != nil {
			time.Sleep(time.Second) // want `the retry loop waits without watching ctx`
			continue
		}
		if resp.StatusCode != http.StatusUnauthorized && resp.StatusCode != http.StatusServiceUnavailable {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return resp, err
}
