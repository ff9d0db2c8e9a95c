// Package a retries non-idempotent requests, with and without keys.
package a

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"

	backoff "github.com/cenkalti/backoff/v4"
	"github.com/hashicorp/go-retryablehttp"
	"github.com/resilint/resilint/runtime/idempotency"
	rt "github.com/resilint/resilint/runtime/retry"

	"idempotency/pay"
)

const chargeMethod = http.MethodPost

func newUUID() string { return "uuid" }

// A hand-written retry around a POST without a key.
func charge(ctx context.Context, c *http.Client, body []byte) error { // want charge:"key place: http\\.Client\\.Do at a\\.go:\\d+"
	for i := 0; i < 3; i++ {
		req, err := http.NewRequestWithContext(ctx, chargeMethod, "https://pay.example/charges", bytes.NewReader(body))
		if err != nil {
			return err
		}
		resp, err := c.Do(req) // want `http.Client.Do sends POST inside a retry without an Idempotency-Key header: a timeout means the result is unknown`
		if err == nil && resp.StatusCode < 500 {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return errors.New("charge failed")
}

// A library retry around http.Post.
func notify(ctx context.Context, payload []byte) error { // want notify:"key place: http\\.Post at a\\.go:\\d+"
	return backoff.Retry(func() error {
		resp, err := http.Post("https://mail.example/send", "application/json", bytes.NewReader(payload)) // want `http.Post sends POST inside a retry without an Idempotency-Key header`
		if err != nil {
			return err
		}
		return resp.Body.Close()
	}, backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 3))
}

// go-retryablehttp retries POST by itself.
func order(c *retryablehttp.Client, form url.Values) error { // want order:"key place: retryablehttp\\.Client\\.PostForm at a\\.go:\\d+"
	resp, err := c.PostForm("https://shop.example/orders", form) // want `retryablehttp.Client.PostForm sends POST inside a retry without an Idempotency-Key header`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func patch(ctx context.Context, c *retryablehttp.Client, body []byte) error { // want patch:"key place: retryablehttp\\.Client\\.Do at a\\.go:\\d+"
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPatch, "https://shop.example/orders/1", body)
	if err != nil {
		return err
	}
	resp, err := c.Do(req) // want `retryablehttp.Client.Do sends PATCH inside a retry without an Idempotency-Key header`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// A method that is not a constant: the caller chooses it (GET, PUT...),
// so the helper is no finding.
func anyMethod(ctx context.Context, c *http.Client, method string) error {
	return rt.Do(ctx, nil, func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, method, "https://api.example/x", nil)
		if err != nil {
			return err
		}
		resp, err := c.Do(req)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	})
}

// The request is built in a helper of another package.
func viaBuilder(ctx context.Context, c *http.Client, body []byte) error { // want viaBuilder:"key place: http\\.Client\\.Do at a\\.go:\\d+"
	var err error
	for i := 0; i < 3; i++ {
		var req *http.Request
		req, err = pay.NewChargeRequest(ctx, body)
		if err != nil {
			return err
		}
		var resp *http.Response
		resp, err = c.Do(req) // want `http.Client.Do sends POST inside a retry without an Idempotency-Key header`
		if err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return err
}

// The request is built and sent in a helper of another package.
func viaSender(ctx context.Context, c *http.Client, body []byte) error { // want viaSender:"key place: pay\\.Charge at a\\.go:\\d+"
	return backoff.Retry(func() error {
		return pay.Charge(ctx, c, body) // want `pay.Charge sends POST \(http.Client.Do at pay.go:\d+\) inside a retry without an Idempotency-Key header`
	}, backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 2))
}

// A key made inside the loop: a new key per attempt.
func keyPerAttempt(ctx context.Context, c *http.Client, body []byte) error { // want keyPerAttempt:"key place: http\\.Client\\.Do at a\\.go:\\d+"
	var err error
	for i := 0; i < 3; i++ {
		key := newUUID()
		req, rerr := http.NewRequestWithContext(ctx, http.MethodPost, "https://pay.example/charges", bytes.NewReader(body))
		if rerr != nil {
			return rerr
		}
		req.Header.Set("Idempotency-Key", key) // want `the Idempotency-Key is made anew in every attempt of the retry loop`
		var resp *http.Response
		if resp, err = c.Do(req); err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return err
}

func keyPerAttemptInline(ctx context.Context, c *http.Client, body []byte) error { // want keyPerAttemptInline:"key place: http\\.Client\\.Do at a\\.go:\\d+"
	return backoff.Retry(func() error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://pay.example/charges", bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header["Idempotency-Key"] = []string{idempotency.NewKey()} // want `the Idempotency-Key is made anew in every attempt of the backoff.Retry`
		resp, err := c.Do(req)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	}, backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 2))
}

// ---- near misses ---------------------------------------------------------

// A key made once, before the loop, and set on every attempt.
func keyBefore(ctx context.Context, c *http.Client, body []byte) error { // want keyBefore:"key place: http\\.Client\\.Do at a\\.go:\\d+"
	key := idempotency.NewKey()
	var err error
	for i := 0; i < 3; i++ {
		req, rerr := http.NewRequestWithContext(ctx, http.MethodPost, "https://pay.example/charges", bytes.NewReader(body))
		if rerr != nil {
			return rerr
		}
		req.Header.Set("Idempotency-Key", key)
		var resp *http.Response
		if resp, err = c.Do(req); err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return err
}

func setKey(req *http.Request, key string) { req.Header.Set("X-Idempotency-Key", key) }

// The key is set by a helper.
func keyByHelper(ctx context.Context, c *http.Client, body []byte, key string) error { // want keyByHelper:"key place: http\\.Client\\.Do at a\\.go:\\d+"
	return backoff.Retry(func() error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://pay.example/charges", bytes.NewReader(body))
		if err != nil {
			return err
		}
		setKey(req, key)
		resp, err := c.Do(req)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	}, backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 2))
}

// A key given to a helper of another package.
func keyGiven(ctx context.Context, c *http.Client, body []byte) error { // want keyGiven:"key place: pay\\.ChargeWithKey at a\\.go:\\d+"
	key := idempotency.NewKey()
	return backoff.Retry(func() error {
		return pay.ChargeWithKey(ctx, c, body, key)
	}, backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 2))
}

// Idempotent methods.
func put(ctx context.Context, c *http.Client, body []byte) error {
	var err error
	for i := 0; i < 3; i++ {
		req, rerr := http.NewRequestWithContext(ctx, http.MethodPut, "https://shop.example/orders/1", bytes.NewReader(body))
		if rerr != nil {
			return rerr
		}
		var resp *http.Response
		if resp, err = c.Do(req); err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return err
}

func get(c *retryablehttp.Client) error {
	resp, err := c.Get("https://shop.example/orders")
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// A POST outside any retry.
func once(ctx context.Context, c *http.Client, body []byte) error {
	resp, err := http.Post("https://shop.example/orders", "application/json", bytes.NewReader(body))
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// A client whose transport adds keys.
func viaTransport(ctx context.Context, body []byte) error {
	c := &http.Client{Transport: &idempotency.Transport{Base: http.DefaultTransport}}
	var err error
	for i := 0; i < 3; i++ {
		var resp *http.Response
		if resp, err = c.Post("https://shop.example/orders", "application/json", bytes.NewReader(body)); err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return err
}

// A client whose retrying is off.
func noRetry(body []byte) error {
	c := retryablehttp.NewClient()
	c.RetryMax = 0
	resp, err := c.Post("https://shop.example/orders", "application/json", body)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// The key is set on a header map given to the request.
func headerMap(ctx context.Context, c *http.Client, body []byte) error { // want headerMap:"key place: http\\.Client\\.Do at a\\.go:\\d+"
	key := idempotency.NewKey()
	return backoff.Retry(func() error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://pay.example/charges", bytes.NewReader(body))
		if err != nil {
			return err
		}
		h := http.Header{}
		h.Set("Idempotency-Key", key)
		req.Header = h
		resp, err := c.Do(req)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	}, backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 2))
}

// The header name built with CanonicalHeaderKey, the method from a string.
func canonicalName(ctx context.Context, c *http.Client, body []byte) error { // want canonicalName:"key place: http\\.Client\\.Do at a\\.go:\\d+"
	key := idempotency.NewKey()
	var err error
	for i := 0; i < 3; i++ {
		req, rerr := http.NewRequestWithContext(ctx, strings.ToUpper("post"), "https://pay.example/charges", bytes.NewReader(body))
		if rerr != nil {
			return rerr
		}
		req.Header.Set(http.CanonicalHeaderKey("idempotency-key"), key)
		var resp *http.Response
		if resp, err = c.Do(req); err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return err
}

// Keys set with Header.Add and an http.Header literal count.
func headerAddAndLiteral(ctx context.Context, c *http.Client, body []byte, key string) error { // want headerAddAndLiteral:"key place: http\\.Client\\.Do at a\\.go:\\d+"
	var err error
	for i := 0; i < 3; i++ {
		a, rerr := http.NewRequestWithContext(ctx, http.MethodPost, "https://pay.example/charges", bytes.NewReader(body))
		if rerr != nil {
			return rerr
		}
		a.Header.Add("Idempotency-Key", key)
		b, rerr := http.NewRequestWithContext(ctx, http.MethodPatch, "https://pay.example/charges/1", bytes.NewReader(body))
		if rerr != nil {
			return rerr
		}
		b.Header = http.Header{"X-Idempotency-Key": {key}}
		var resp *http.Response
		if resp, err = c.Do(a); err == nil {
			resp.Body.Close()
			if resp, err = c.Do(b); err == nil {
				return resp.Body.Close()
			}
		}
		time.Sleep(time.Second)
	}
	return err
}

// The key set through the embedded *http.Request of a retryablehttp
// request, spelled out or promoted: no finding.
func patchWithKey(ctx context.Context, c *retryablehttp.Client, body []byte, key string) error { // want patchWithKey:"key place: retryablehttp\\.Client\\.Do at a\\.go:\\d+"
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPatch, "https://shop.example/orders/1", body)
	if err != nil {
		return err
	}
	req.Request.Header.Set("Idempotency-Key", key)
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func patchWithPromotedKey(ctx context.Context, c *retryablehttp.Client, body []byte, key string) error { // want patchWithPromotedKey:"key place: retryablehttp\\.Client\\.Do at a\\.go:\\d+"
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPatch, "https://shop.example/orders/1", body)
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", key)
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
