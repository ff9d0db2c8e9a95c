package a

import (
	"context"
	"net/http"
)

func roundTrip(ctx context.Context, req *http.Request) (*http.Response, error) {
	return http.DefaultClient.Do(req.WithContext(ctx))
}

// sendAuthed resends only on 401, once the token was refreshed: while the
// server is down it makes one attempt, so it multiplies nothing.
func sendAuthed(ctx context.Context, req *http.Request) (*http.Response, error) {
	var resp *http.Response
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		resp, err = roundTrip(ctx, req)
		if resp == nil {
			return nil, err
		}
		if resp.StatusCode != http.StatusUnauthorized {
			return resp, err
		}
	}
	return resp, err
}

// sendUnavailable resends on 500: a retry of an outage.
func sendUnavailable(ctx context.Context, req *http.Request) (*http.Response, error) {
	var resp *http.Response
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		resp, err = roundTrip(ctx, req)
		if resp == nil {
			return nil, err
		}
		if resp.StatusCode != http.StatusInternalServerError {
			return resp, err
		}
	}
	return resp, err
}

// fetchAuthed retries around sendAuthed: not nested.
func fetchAuthed(ctx context.Context, req *http.Request) error {
	var err error
	for i := 0; i < 3; i++ {
		if _, err = sendAuthed(ctx, req); err == nil {
			return nil
		}
	}
	return err
}

// fetchUnavailable retries around sendUnavailable: nested.
func fetchUnavailable(ctx context.Context, req *http.Request) error {
	var err error
	for i := 0; i < 3; i++ { // want `nested retry: retry loop makes 3 attempts, each reaching sendUnavailable`
		if _, err = sendUnavailable(ctx, req); err == nil {
			return nil
		}
	}
	return err
}
