module github.com/resilint/resilint/bench/ratelimitbench

go 1.26.0

replace (
	github.com/resilint/resilint/runtime => ../../runtime
	github.com/resilint/resilint/runtime/ratelimit/redisstore => ../../runtime/ratelimit/redisstore
)

require (
	github.com/go-redis/redis_rate/v10 v10.0.1
	github.com/redis/go-redis/v9 v9.23.0
	github.com/resilint/resilint/runtime v0.0.0
	github.com/resilint/resilint/runtime/ratelimit/redisstore v0.0.0
	golang.org/x/time v0.16.0
)

require (
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	go.uber.org/atomic v1.12.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
)
