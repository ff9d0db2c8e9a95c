package redisstore_test

import (
	"context"
	"fmt"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/resilint/resilint/runtime/ratelimit"
	"github.com/resilint/resilint/runtime/ratelimit/redisstore"
)

func ExampleNew() {
	mr, _ := miniredis.Run() // stands in for a Redis server
	defer mr.Close()

	rdb := redis.NewClient(&redis.Options{
		Addr:                  mr.Addr(),
		ContextTimeoutEnabled: true, // let ratelimit.Config.StoreTimeout end the call
		MaxRetries:            1,
	})
	defer rdb.Close()
	store, err := redisstore.New(redisstore.Config{Client: rdb, Prefix: "recs:"})
	if err != nil {
		panic(err)
	}
	// Every instance of the service limits with the same store: 60 per
	// user per minute in total, however requests are balanced.
	l, err := ratelimit.New(ratelimit.Config{Limit: 60, Window: time.Minute, Store: store})
	if err != nil {
		panic(err)
	}
	at := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	d, err := l.AllowN(context.Background(), "user:123", at, 1)
	fmt.Println(d.Allowed, d.Remaining(), err)
	fmt.Println(mr.Keys())
	// Output:
	// true 59 <nil>
	// [recs:{user:123}:29454480]
}
