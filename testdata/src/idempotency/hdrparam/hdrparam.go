// Package hdrparam: helpers that put their caller's headers on the
// request they send. The caller's value says whether the request carries
// an idempotency key; a caller whose headers lack it is reported, one
// whose headers the model cannot read is not.
package hdrparam

import (
	"context"
	"errors"
	"io"
	"net/http"
	"time"

	"idempotency/hdrparam/httpx"
)

type api struct{ hc *http.Client }

// send puts the caller's headers on the request.
func (a *api) send(ctx context.Context, method, url string, h http.Header, body io.Reader) error {
	req, err := http.NewRequestWithContext(ctx, method, url, body)
	if err != nil {
		return err
	}
	req.Header = h
	resp, err := a.hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// setOne sets the header its caller names.
func (a *api) setOne(ctx context.Context, url, hname, hval string, body io.Reader) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, body)
	if err != nil {
		return err
	}
	req.Header.Set(hname, hval)
	resp, err := a.hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// create sets the key on the headers it gives: not reported.
func (a *api) create(ctx context.Context, url, key string) error { // want create:"key place: \\(\\*api\\).send at hdrparam\\.go:\\d+"
	h := http.Header{}
	h.Set("Idempotency-Key", key)
	for i := 0; i < 3; i++ {
		if err := a.send(ctx, http.MethodPost, url, h, nil); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("create failed")
}

// createLit gives a literal with the key: not reported.
func (a *api) createLit(ctx context.Context, url, key string) error { // want createLit:"key place: \\(\\*api\\).send at hdrparam\\.go:\\d+"
	for i := 0; i < 3; i++ {
		if err := a.send(ctx, http.MethodPost, url, http.Header{"Idempotency-Key": {key}}, nil); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("create failed")
}

// createNamed names the key header itself: not reported.
func (a *api) createNamed(ctx context.Context, url, key string) error { // want createNamed:"key place: \\(\\*api\\).setOne at hdrparam\\.go:\\d+"
	for i := 0; i < 3; i++ {
		if err := a.setOne(ctx, url, "Idempotency-Key", key, nil); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("create failed")
}

// createMap gives a map with the key to another package's helper: not
// reported.
func (a *api) createMap(ctx context.Context, url, key string) error { // want createMap:"key place: httpx.Post at hdrparam\\.go:\\d+"
	hs := map[string]string{"Content-Type": "application/json"}
	hs["Idempotency-Key"] = key
	for i := 0; i < 3; i++ {
		if _, err := httpx.Post(ctx, a.hc, url, hs, nil); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("create failed")
}

// patchMap: the same through the helper that indexes the header.
func (a *api) patchMap(ctx context.Context, url, key string) error { // want patchMap:"key place: httpx.Patch at hdrparam\\.go:\\d+"
	for i := 0; i < 3; i++ {
		if _, err := httpx.Patch(ctx, a.hc, url, map[string]string{"Idempotency-Key": key}, nil); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("patch failed")
}

// forward retries with headers its own caller gives: the model cannot
// tell whether they carry a key, not reported.
func (a *api) forward(ctx context.Context, url string, h http.Header) error {
	for i := 0; i < 3; i++ {
		if err := a.send(ctx, http.MethodPost, url, h, nil); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("forward failed")
}

// Near misses: the caller's headers are known and carry no key.

func (a *api) createNoKey(ctx context.Context, url string) error { // want createNoKey:"key place: \\(\\*api\\).send at hdrparam\\.go:\\d+"
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	for i := 0; i < 3; i++ {
		if err := a.send(ctx, http.MethodPost, url, h, nil); err == nil { // want `\(\*api\).send sends POST \(http.Client.Do at hdrparam.go:\d+\) inside a retry without an Idempotency-Key header`
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("create failed")
}

func (a *api) createLitNoKey(ctx context.Context, url string) error { // want createLitNoKey:"key place: \\(\\*api\\).send at hdrparam\\.go:\\d+"
	for i := 0; i < 3; i++ {
		if err := a.send(ctx, http.MethodPost, url, http.Header{"Content-Type": {"application/json"}}, nil); err == nil { // want `\(\*api\).send sends POST .* inside a retry without an Idempotency-Key header`
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("create failed")
}

func (a *api) createNamedNoKey(ctx context.Context, url, trace string) error { // want createNamedNoKey:"key place: \\(\\*api\\).setOne at hdrparam\\.go:\\d+"
	for i := 0; i < 3; i++ {
		if err := a.setOne(ctx, url, "X-Trace-Id", trace, nil); err == nil { // want `\(\*api\).setOne sends POST .* inside a retry without an Idempotency-Key header`
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("create failed")
}

func (a *api) createMapNoKey(ctx context.Context, url string) error { // want createMapNoKey:"key place: httpx.Post at hdrparam\\.go:\\d+"
	hs := map[string]string{"Content-Type": "application/json"}
	for i := 0; i < 3; i++ {
		if _, err := httpx.Post(ctx, a.hc, url, hs, nil); err == nil { // want `httpx.Post sends POST .* inside a retry without an Idempotency-Key header`
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("create failed")
}

// prefix is empty: a header set under it has no name.
const prefix = ""

// tagEmpty sets a header whose constant name is empty on the request it
// is given.
func tagEmpty(req *http.Request) { req.Header.Set(prefix, "x") }

// A helper that writes a nameless header is followed without a fault.
func (a *api) tagged(ctx context.Context, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	tagEmpty(req)
	_, err = a.hc.Do(req)
	return err
}
