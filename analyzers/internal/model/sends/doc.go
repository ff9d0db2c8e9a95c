// Package sends is the model's layer of HTTP sends: an analysis pass
// (resilsends) that reports nothing, built on the model
// (analyzers/internal/model: the retries and what one attempt runs) and on
// value provenance. For each retry it states the requests one attempt
// sends (Result.Of) — net/http and catalogued client sends, and calls of
// functions that send — with, for each, the request's method (when it is
// a constant), the headers set on it (package-wide: Header.Set, Add,
// indexing, literals) and whether each value is made anew in every
// attempt, whether the client's transport adds idempotency keys, and the
// URL's host when it is constant.
//
// It exports a SendFact for every function that sends a request whose
// method is not known to be idempotent (the method, or "?" when it comes
// from elsewhere; the headers it sets and those it is given; the
// parameters its headers come from, resolved at each call; whether it
// retries by itself a request whose method or headers the caller decides,
// which Result.Deferred lists at the calls) and a
// RequestFact for every function that builds a request, so a wrapper's
// callers know what it sends. A send after which every path leaves the
// loop is not re-sent (model.SentOnce).
//
// What is wrong with a send (a retried POST without an idempotency key)
// is the idempotency check's (analyzers/idempotency). The standard
// library is opaque. docs/model.md describes every layer.
package sends
