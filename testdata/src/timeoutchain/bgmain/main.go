// Package main: a program whose body is an exported function that main
// calls with context.Background(). No other package can import package
// main, so main is its only caller: its context can never be cancelled,
// and a Background in it drops nothing.
package main

import (
	"context"
	"net/http"
)

func flush(ctx context.Context, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Run is the program's body.
func Run(ctx context.Context, stop <-chan struct{}) error {
	select {
	case <-stop:
		return flush(context.Background(), "http://collector/v1/traces")
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Near miss: an exported method may be called through an interface of
// another package (a framework's Start(ctx)), with a context that ends.
type app struct{ stop chan struct{} }

func (a *app) Start(ctx context.Context) error {
	select {
	case <-a.stop:
		return flush(context.Background(), "http://collector/v1/traces") // want `context.Background\(\) drops the deadline and cancellation of ctx`
	case <-ctx.Done():
		return ctx.Err()
	}
}

func main() {
	stop := make(chan struct{})
	_ = Run(context.Background(), stop)
	a := &app{stop: stop}
	_ = a.Start(context.Background())

	// A handler written in main runs under its request's context, not
	// under main's.
	http.HandleFunc("/flush", func(w http.ResponseWriter, r *http.Request) {
		if err := flush(context.Background(), "http://collector/v1/traces"); err != nil { // want `context.Background\(\) drops the deadline and cancellation of r.Context\(\)`
			http.Error(w, err.Error(), http.StatusBadGateway)
		}
	})
	// Near miss: a closure of main's with no context of its own runs
	// under main's.
	final := func() error { return flush(context.Background(), "http://collector/v1/traces") }
	_ = final()
	_ = http.ListenAndServe("localhost:8080", nil)
}
