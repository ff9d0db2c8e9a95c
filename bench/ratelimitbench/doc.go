// Package ratelimitbench compares the cost of a decision of resilint's
// runtime/ratelimit with golang.org/x/time/rate (a token bucket, in
// process) and github.com/go-redis/redis_rate (GCRA in Redis), side by
// side in one run. It is a module of its own so that the peers never enter
// the runtime's dependencies.
//
// Run, from this directory, with a redis-server on a loopback port (the
// Redis benchmarks are skipped without one):
//
//	RESILINT_REDIS_ADDR=127.0.0.1:6379 bash run.sh
//
// Besides ns/op (wall time), every benchmark reports cpu-ns/op, the CPU
// time the whole process spent per operation (getrusage): on a shared
// machine whose cores are oversubscribed, wall time mostly measures the
// wait for a core, CPU time the work. For the Redis benchmarks it is the
// client's side only.
//
// What is compared:
//
//   - Allow: one key, every request admitted (a limit far above the load),
//     so that every library does its whole computation; serially and from
//     GOMAXPROCS goroutines (RunParallel). x/time/rate's Limiter is one
//     limiter, shared by the goroutines, as it is used for one key.
//   - AllowKeyed: 10,000 keys taken in turn, serially and in parallel
//     (each goroutine its own keys). x/time/rate has no keys: the peer is a
//     sync.Map of *rate.Limiter, the usual way to key it.
//   - Redis: one decision over the network to the same redis-server, one
//     round trip for both (a Lua script each), serially and in parallel.
package ratelimitbench
