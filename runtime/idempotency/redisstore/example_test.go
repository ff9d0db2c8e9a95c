package redisstore_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/resilint/resilint/runtime/idempotency"
	"github.com/resilint/resilint/runtime/idempotency/redisstore"
)

func ExampleNew() {
	mr, _ := miniredis.Run() // stands in for a Redis server
	defer mr.Close()

	rdb := redis.NewClient(&redis.Options{
		Addr:                  mr.Addr(),
		ContextTimeoutEnabled: true, // let idempotency.Config.StoreTimeout bound each call
	})
	defer rdb.Close()
	store, err := redisstore.New(redisstore.Config{Client: rdb, Prefix: "shop:idem:"})
	if err != nil {
		panic(err)
	}
	// Every instance of the service wraps its handler with the same store.
	mw, err := idempotency.New(idempotency.Config{
		Store: store,
		Scope: func(r *http.Request) string { return r.Header.Get("X-Account") },
	})
	if err != nil {
		panic(err)
	}
	orders := 0
	h := mw.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		orders++
		w.WriteHeader(http.StatusCreated)
		fmt.Fprintf(w, "order #%d", orders)
	}))

	for range 2 {
		r := httptest.NewRequest(http.MethodPost, "/orders", strings.NewReader(`{"sku":"A1"}`))
		r.Header.Set("X-Account", "acct_1")
		r.Header.Set("Idempotency-Key", "2f1c6e0a")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		fmt.Printf("%d %s replayed=%q\n", w.Code, w.Body, w.Header().Get(idempotency.ReplayedHeader))
	}
	fmt.Println(mr.Keys())
	// Output:
	// 201 order #1 replayed=""
	// 201 order #1 replayed="true"
	// [shop:idem:{acct_1:2f1c6e0a}]
}
