package idempotency_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"time"

	"github.com/resilint/resilint/runtime/idempotency"
	"github.com/resilint/resilint/runtime/retry"
)

func ExampleNewKey() {
	key := idempotency.NewKey()
	fmt.Println(len(key), idempotency.ValidateKey(key))
	// Output: 26 <nil>
}

func ExampleEnsureKey() {
	ctx, key := idempotency.EnsureKey(context.Background()) // once, before the retry loop
	for attempt := 1; attempt <= 3; attempt++ {
		k, _ := idempotency.KeyFromContext(ctx) // what Transport puts on each attempt
		fmt.Println(attempt, k == key)
	}
	// Output:
	// 1 true
	// 2 true
	// 3 true
}

func ExampleTransport() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "%s %q", r.Method, r.Header.Get("Idempotency-Key"))
	}))
	defer srv.Close()
	client := &http.Client{Transport: &idempotency.Transport{}}

	ctx := idempotency.WithKey(context.Background(), "order-42")
	for _, method := range []string{http.MethodPost, http.MethodPatch, http.MethodGet} {
		req, _ := http.NewRequestWithContext(ctx, method, srv.URL, strings.NewReader("{}"))
		resp, err := client.Do(req)
		if err != nil {
			fmt.Println(err)
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Println(string(b))
	}
	// Output:
	// POST "order-42"
	// PATCH "order-42"
	// GET ""
}

func ExampleMiddleware_Wrap() {
	var charges atomic.Int32
	charge := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := charges.Add(1)
		w.WriteHeader(http.StatusCreated)
		fmt.Fprintf(w, "charge #%d", n)
	})
	mw, err := idempotency.New(idempotency.Config{
		Required: true,
		Scope:    func(r *http.Request) string { return r.Header.Get("X-Account") },
	})
	if err != nil {
		panic(err)
	}
	h := mw.Wrap(charge)

	post := func(key, body string) {
		r := httptest.NewRequest(http.MethodPost, "/charges", strings.NewReader(body))
		r.Header.Set("X-Account", "acct_1")
		if key != "" {
			r.Header.Set("Idempotency-Key", key)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		fmt.Printf("%d %q replayed=%q\n", w.Code, strings.TrimSpace(w.Body.String()), w.Header().Get(idempotency.ReplayedHeader))
	}
	post("k1", `{"amount":100}`) // runs the handler
	post("k1", `{"amount":100}`) // a retry: the first response again
	post("k1", `{"amount":999}`) // the same key for another request
	post("", `{"amount":100}`)   // no key
	fmt.Println("charges:", charges.Load())
	// Output:
	// 201 "charge #1" replayed=""
	// 201 "charge #1" replayed="true"
	// 422 "idempotency: idempotency key reused for a different request: the key was first used with another method, path, query or body; use a new key for a new request" replayed=""
	// 400 "idempotency: missing idempotency key: this request needs an Idempotency-Key header; make one key per logical request and send it with every attempt" replayed=""
	// charges: 1
}

// lossyTransport delivers the first request but loses its response, as a
// timeout after the server has done the work would.
type lossyTransport struct {
	base http.RoundTripper
	lost atomic.Bool
}

func (t *lossyTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(r)
	if err == nil && t.lost.CompareAndSwap(false, true) {
		resp.Body.Close()
		return nil, errors.New("read tcp: i/o timeout") // the charge went through; its answer did not
	}
	return resp, err
}

// The whole story: a payment whose first answer is lost is retried with the
// same key, and the server charges once.
func Example() {
	var charges atomic.Int32
	mw, err := idempotency.New(idempotency.Config{
		Required: true,
		// The client a request comes from: keys are unique per client.
		Scope: func(r *http.Request) string { return r.Header.Get("X-Account") },
	})
	if err != nil {
		panic(err)
	}
	srv := httptest.NewServer(mw.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := charges.Add(1)
		w.WriteHeader(http.StatusCreated)
		fmt.Fprintf(w, "charge #%d", n)
	})))
	defer srv.Close()

	client := &http.Client{Transport: &idempotency.Transport{
		Base: &lossyTransport{base: http.DefaultTransport},
	}}
	// With a key on every attempt, a POST is safe to retry even when its
	// outcome is unknown: tell the retry so.
	p := &retry.Policy{MaxAttempts: 3, BaseDelay: time.Millisecond, Idempotent: true}

	ctx, _ := idempotency.EnsureKey(context.Background()) // one key for the logical request
	body, err := retry.DoValue(ctx, p, func(ctx context.Context) (string, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+"/charges", strings.NewReader(`{"amount":100}`))
		if err != nil {
			return "", retry.Permanent(err)
		}
		resp, err := client.Do(req)
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		if err := retry.HTTPError(resp); err != nil {
			return "", err
		}
		b, err := io.ReadAll(resp.Body)
		return fmt.Sprintf("%s (replayed: %s)", b, resp.Header.Get(idempotency.ReplayedHeader)), err
	})
	fmt.Println(body, err)
	fmt.Println("charges:", charges.Load())
	// Output:
	// charge #1 (replayed: true) <nil>
	// charges: 1
}
