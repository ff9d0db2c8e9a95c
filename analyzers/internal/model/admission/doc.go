// Package admission is a layer of resilint's model: which functions
// decide, by the load a server measures, whether it takes one more
// request, and, for a status an HTTP handler writes, whether such a
// decision refused the request it answers.
//
// By itself it reports nothing. It exports an AdmitsFact for every
// function whose result a limiter decides — it asks a rate limiter, a
// semaphore or a bulkhead (catalog.AdmissionRows), takes a slot with a
// send that does not wait (a select with a default), adds to an atomic
// count and uses the sum (catalog.CountRows), or calls a function with the
// fact, of any package — so that the caller of `tryAdmit(r)` knows it. A
// Redis counter (an INCR, or a key read and given an expiry) is known from
// the rediscmd layer's facts (rediscmd.Func.Counts).
//
// Its Result answers the ratelimit check's question about a 503: did a
// limiter refuse this request (Sheds)? Whether a status without
// Retry-After is wrong, and how to say so, is the check's. Guard, what
// decides whether a call runs, is shared with the check's Retry-After fix.
//
// Calls are recognized by type through catalog rows, never by their
// spelling. docs/model.md describes every layer.
package admission
