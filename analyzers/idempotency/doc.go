// Package idempotency defines an Analyzer that reports retried
// non-idempotent HTTP requests sent without an idempotency key.
//
// # Analyzer idempotency
//
// idempotency: report retried POST/PATCH requests without an idempotency key
//
// A timeout, a reset connection or a 502 means the result is unknown, not
// that the request failed: the server may have charged the card, created
// the order or sent the e-mail before the answer was lost. Retrying a
// non-idempotent request (POST, PATCH) then does it twice. The standard
// remedy is an idempotency key: a unique value, made once per logical
// request and sent with every attempt in a header (Idempotency-Key), so
// that the server can recognize the retry and replay the first answer
// instead of acting again.
//
// Inside every retry the shared model recognizes — hand-written loops,
// retry library closures, a go-retryablehttp client (which retries POST by
// itself), resilint's runtime/retry — the check reports a request sent with
// a method that is POST, PATCH, or not a constant of the idempotent set
// (GET, HEAD, PUT, DELETE, OPTIONS, TRACE) when:
//
//   - no idempotency key header is set on it (net/http NewRequest +
//     Client.Do, http.Post, http.PostForm, Client.Post/PostForm,
//     go-retryablehttp's NewRequest + Do and Post/PostForm; requests built
//     or sent in helper functions count, in any package); or
//   - the key is made inside the retry (a new UUID per attempt): every
//     attempt then carries a different key and the server cannot
//     deduplicate. Make the key once per logical request, before the retry.
//
// Headers set with Header.Set, Header.Add, direct map assignment, an
// http.Header literal, or a helper that sets them count; headers a helper
// takes from its caller (an http.Header or map it sets, a name and value it
// is given) are read at each call: known headers without the key are
// reported there, headers the model cannot read are not. A helper that
// retries by itself a request whose method or headers its caller gives is
// reported at the call that decides them. Requests sent
// through a transport that adds keys (runtime/idempotency's Transport) are
// not reported. The header names are set with -idempotency.header
// (default "Idempotency-Key,X-Idempotency-Key").
//
// One request, one finding: it is reported where the request is made and
// first retried; callers that retry it again (retrynesting's finding) or
// only pass it on (a library's own PostForm calling its Post) are related
// locations of that finding.
//
// The suggested fix makes the key once before the retry with
// runtime/idempotency's NewKey and sets it on the request inside.
package idempotency
