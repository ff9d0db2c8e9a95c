// Package libconfig is the model's library-configuration layer: an
// analysis pass that reports nothing and states, for every library retry
// the model found (analyzers/internal/model), how the catalog says its
// configuration is set — which delay it waits, its jitter, its time bound
// and its attempt bound — and where the code says so.
//
// A Setting is a fact about code, not a finding: "DelayType is given
// retry.FixedDelay", "this wait.Backoff literal leaves Jitter out",
// "RandomizationFactor is written 0", "the backoff is wrapped in
// WithMaxRetries". Which of them is wrong, how to say so and how to fix
// it is the backoff check's (analyzers/backoff).
//
// Library knowledge comes from catalog rows (analyzers/internal/catalog):
// the callee of an option or constructor is resolved to its row before
// anything is read from it, so a function of another package with the
// same name is never taken for the library's. What is library-specific
// beyond the rows is where each library keeps its bounds: cenkalti/backoff
// v4 bounds time in the BackOff value (MaxElapsedTime, 15 minutes by
// default, none in a constant or zero backoff) and v5 in options of Retry.
//
// A gRPC retry interceptor (go-grpc-middleware's, catalog
// RetryInterceptor rows) is no retry of the model: it runs nothing where
// it is made, and retries the calls made through the connection it is
// installed on, which are not followed. Its configuration is read here
// anyway, at the call that makes it, under a Retry of its own that no
// other layer sees (interceptors.go).
//
// This layer sits on the model and not inside it because nothing in the
// model depends on it: recognizing library retries (libretry.go,
// bounds.go) stays in the model, which needs them for nesting.
package libconfig
