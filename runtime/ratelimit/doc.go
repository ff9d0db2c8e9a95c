// Package ratelimit limits the rate of requests per key (a user, an API
// key, a client address) with a sliding window counter, in process or
// shared through a [Store] such as runtime/ratelimit/redisstore, and
// answers refused HTTP requests with 429 and the headers that tell clients
// when to come back.
//
// # The sliding window counter
//
// For every key it keeps two integers: the count of the current window and
// the count of the previous one (windows of [Config.Window], aligned on the
// Unix epoch). A request at a fraction p of the current window is admitted
// when
//
//	previous × (1 − p) + current + 1 ≤ limit
//
// that is, when the requests of the last full window, assuming the
// previous window's were spread evenly, stay within the limit. A fixed
// window (current only) lets twice the limit through around a window
// boundary; an exact sliding log costs memory per request. The counter
// costs two integers per key and stays within a few percent of the exact
// log (see docs/runtime/ratelimit.md for the measurements and the tests
// that back them).
//
// # Decisions
//
// [Limiter.Allow] and [Limiter.AllowN] (with an explicit time, like
// golang.org/x/time/rate's AllowN) return a [Decision]: whether the
// request was admitted, the limit, how many more would be admitted now,
// how long until the whole limit is back ([Decision.Reset]) and how long
// until one more request would be admitted ([Decision.RetryAfter]).
//
// # HTTP
//
// [Middleware] limits an http.Handler by a key function ([RemoteIP],
// [ForwardedIP], [Header]; there is no default that would lump all callers
// together), answers 429 Too Many Requests with Retry-After, and sets on
// every response RateLimit-Policy and RateLimit as in the IETF httpapi
// draft "RateLimit header fields for HTTP" (draft-ietf-httpapi-ratelimit-
// headers-11), and X-RateLimit-Limit, X-RateLimit-Remaining and
// X-RateLimit-Reset.
//
// # When the shared store fails
//
// A decision waits at most [Config.StoreTimeout] for the [Store]. Then, by
// default, it falls back to a local limiter of [Config.FallbackLimit] per
// key in this process (an outage of the store must neither take the API
// down nor leave it unlimited); with [StoreFailureClosed] it refuses, and
// the middleware answers 503 with Retry-After.
package ratelimit
