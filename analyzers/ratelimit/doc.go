// Package ratelimit defines an Analyzer that reports rate limits that leak
// under concurrency, Redis scripts that Redis Cluster refuses, and 429 and
// 503 responses that do not say when to come back, or whose advice a
// client ignores.
//
// # Analyzer ratelimit
//
// ratelimit: report non-atomic rate-limit counters in Redis, scripts across hash slots, and 429s or load-shedding 503s without Retry-After
//
// A rate limit kept in Redis must decide in one atomic step: read the
// count, compare, increment. Written as separate commands, two concurrent
// requests read the same count and both pass — a limit of 60 a minute lets
// 80 or 100 through when clients send in parallel. And a 429 that does not
// say when to come back makes clients retry at once, so the clients that
// are blocked send more traffic than before.
//
// The check reports:
//
//   - read-modify-write: a key read (GET, HGET, ZCARD, TTL...) and then
//     written (SET, INCR, ZADD...) in separate go-redis or redigo commands,
//     the write decided by the read (an increment, an element added after
//     counting them, a value computed from the reply), outside a Lua
//     script, Watch, TxPipelined or MULTI/EXEC (directly, or through
//     helpers of any package, known by their facts). Use
//     runtime/ratelimit, whose Redis store decides in one script, or put
//     the commands in one script;
//   - incr-expire: INCR then EXPIRE as two commands: a crash or a lost
//     connection between them leaves a counter that never expires (a user
//     limited for ever). Send both in TxPipelined, or in one script;
//   - cross-slot: EVAL, EVALSHA or Script.Run given several keys whose
//     text is visible (constants, concatenations, fmt.Sprintf patterns)
//     and that do not share a hash tag: Redis Cluster refuses the script
//     with CROSSSLOT. Tag the keys with the limited identity, as in
//     "rl:{user:42}:cur" and "rl:{user:42}:prev";
//   - no-retry-after: an HTTP handler writes 429 Too Many Requests, or 503
//     Service Unavailable where a limiter refused the request (a rate
//     limiter, a semaphore, a bulkhead, an in-flight count, a Redis
//     counter: the server sheds load and knows when it has room), with
//     WriteHeader, http.Error or a helper that writes it, and no
//     Retry-After header is set on that path before the status (directly
//     or by a helper, across packages). A 503 for another reason (not
//     ready, stopping, a dependency down) is not reported: nothing knows
//     when it ends. When a Redis counter of the same package with a
//     constant expiry decides the status, the suggested fix sets
//     Retry-After to that time to live;
//   - ignores-retry-after: a retry loop, or a recursive retry, that tells
//     429 or 503 apart from success and waits its own delay without
//     reading the response's Retry-After (directly or through a helper).
//
// Commands in a pipeline (Pipelined) are not reported: their replies are
// not known before the pipeline runs, so nothing is decided between them.
// Keys the check cannot see (a parameter, a value from another function)
// are never reported as crossing slots.
package ratelimit
