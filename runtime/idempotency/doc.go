// Package idempotency makes retried writes safe, on both sides of the
// wire: the client sends every attempt of one logical request with the same
// idempotency key, and the server carries out the request once per key and
// answers every later attempt with the response of the first.
//
// A timeout means "result unknown", not "failed": the server may have
// charged the card and lost only its answer. A client that retries a POST
// without a key risks charging twice; with a key, the retry gets the first
// charge's response back.
//
// # Client
//
// [NewKey] makes a random key. [WithKey] or [EnsureKey] fixes it in the
// context once per logical request, before the retry loop, and [Transport]
// puts it in the Idempotency-Key header of every POST and PATCH sent with
// that context:
//
//	client := &http.Client{Transport: &idempotency.Transport{}}
//	ctx, _ = idempotency.EnsureKey(ctx) // once, outside the loop
//	err := retry.Do(ctx, policy, func(ctx context.Context) error {
//		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
//		...
//		resp, err := client.Do(req)
//		...
//	})
//
// A key made inside the loop, one per attempt, protects nothing.
//
// # Server
//
// [New] returns a [Middleware]; its Wrap method protects a handler. It
// needs [Config.Scope], the client or tenant a request comes from, or the
// explicit opt-out [Config.Unscoped]. For a POST or PATCH with a key,
// within the request's scope:
//
//   - The first request claims the key, runs the handler, and stores the
//     response (status, header, body) for [Config.TTL]. The response goes
//     to the client as the handler writes it.
//   - A later request with the key and the same fingerprint (method, path
//     and query, body) gets the stored response, marked with the
//     Idempotent-Replayed header; the handler does not run.
//   - A request with the key and another fingerprint gets 422.
//   - A request that arrives while the first is still running gets 409
//     with Retry-After, or waits for it ([Config.WaitTimeout]).
//   - A handler that panics or answers 5xx (see [Config.Replayable])
//     releases the key, so that a retry runs it again.
//   - A response larger than [Config.MaxResponseBytes] is not stored; later
//     requests with its key get 410 Gone. The handler never runs twice.
//   - A missing key where one is required gets 400, as does an invalid key
//     ([ValidateKey]).
//   - When the store fails (Redis is down), or a MemoryStore is full of
//     running claims, the request gets 503 and the handler does not run.
//   - A claim survives store pauses: it is freed only one [Config.Lease]
//     after a duplicate found it and its owner did not answer (a heartbeat
//     every Lease/3 while the handler runs).
//
// Records live in a [Store]: [MemoryStore] for one process, or the Redis
// store in the redisstore package, shared by every instance of a service.
// A record that cannot be decoded is logged and treated as absent, never
// replayed.
package idempotency
