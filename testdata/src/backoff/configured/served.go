package configured

import (
	"context"
	"net/http"
	"strconv"
	"time"
)

// throttled carries the wait the server asked for.
type throttled struct{ waitSeconds int }

func (throttled) Error() string { return "throttled" }

// check turns a 429 into the wait its Retry-After names.
func check(resp *http.Response) error {
	if resp.StatusCode == http.StatusTooManyRequests {
		s, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
		return throttled{waitSeconds: s}
	}
	return nil
}

// CallServed waits exactly what the server asked for, read into the
// error's field: the server's word, not a configured delay. Not judged.
func CallServed(ctx context.Context, hc *http.Client, req *http.Request) error {
	for left := 3; ; left-- {
		resp, err := hc.Do(req)
		if err != nil {
			return err
		}
		resp.Body.Close()
		err = check(resp)
		if err == nil || left <= 1 {
			return err
		}
		t, ok := err.(throttled)
		if !ok {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(t.waitSeconds) * time.Second):
		}
	}
}

// pause is a configured wait kept in the same kind of field.
type pause struct{ seconds int }

var defaultPause = pause{seconds: 2}

// CallConfigured waits the configured field instead: reported.
func CallConfigured(ctx context.Context, hc *http.Client, req *http.Request) error {
	for left := 3; ; left-- {
		resp, err := hc.Do(req)
		if err != nil {
			return err
		}
		resp.Body.Close()
		err = check(resp)
		if err == nil || left <= 1 {
			return err
		}
		if _, ok := err.(throttled); !ok {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(defaultPause.seconds) * time.Second): // want `retry delay has no jitter`
		}
	}
}
