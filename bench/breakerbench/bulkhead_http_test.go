package breakerbench

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"golang.org/x/sync/semaphore"

	"github.com/resilint/resilint/bench/breakerbench/lockfree"
	"github.com/resilint/resilint/runtime/bulkhead"
)

// BenchmarkBulkheadAroundHTTP measures each bulkhead around what it guards
// in real use: an HTTP GET to a server on the loopback interface, its body
// read and closed, from GOMAXPROCS goroutines with a slot for each.
// impl=none is the call alone. It decides whether the lock-free bulkhead
// (kept in package lockfree) is worth its complexity over a mutex and a
// list: only if the difference shows above the call's own cost.
func BenchmarkBulkheadAroundHTTP(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "ok")
	}))
	defer srv.Close()
	tr := &http.Transport{MaxIdleConnsPerHost: 64}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}
	call := func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL, nil)
		if err != nil {
			return err
		}
		resp, err := client.Do(req)
		if err != nil {
			return err
		}
		io.Copy(io.Discard, resp.Body)
		return resp.Body.Close()
	}
	const slots = 64
	mutex, err := bulkhead.New(bulkhead.Config{MaxConcurrent: slots})
	if err != nil {
		b.Fatal(err)
	}
	lf, err := lockfree.New(lockfree.Config{MaxConcurrent: slots})
	if err != nil {
		b.Fatal(err)
	}
	sem := semaphore.NewWeighted(slots)
	for _, c := range []struct {
		name string
		do   func(ctx context.Context) error
	}{
		{"impl=none", call},
		{"impl=resilint", func(ctx context.Context) error { return mutex.Do(ctx, call) }},
		{"impl=lockfree", func(ctx context.Context) error { return lf.Do(ctx, call) }},
		{"impl=semaphore", func(ctx context.Context) error {
			if err := sem.Acquire(ctx, 1); err != nil {
				return err
			}
			defer sem.Release(1)
			return call(ctx)
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			ctx := context.Background()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if err := c.do(ctx); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}
