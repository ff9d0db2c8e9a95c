// Package deadline carries a request's deadline across HTTP hops, so that
// every service on the path stops when the first caller gives up, instead of
// each hop running on a timeout of its own and leaving zombie work behind:
// handlers still busy, and downstream calls still made, for a caller that
// has gone.
//
// Two halves, one on each side of a call:
//
//   - [Transport], an http.RoundTripper for the client, writes the time left
//     before the deadline of the request's context, less a margin, to a
//     header, and ends the request's context at that time. A request that
//     would have less than a minimum left fails at once with
//     [ErrNotEnoughTime], without touching the network.
//   - [Middleware], for the server, reads the header, makes the deadline it
//     carries, less a margin, the deadline of the request's context (never
//     extending a deadline the context already has), and answers 504 Gateway
//     Timeout at once when less than a minimum is left.
//
// A handler that makes its downstream calls with r.Context() through a
// Transport then passes the deadline on, minus the margins, hop after hop:
//
//	mw, err := deadline.NewMiddleware(deadline.MiddlewareConfig{})
//	...
//	tr, err := deadline.NewTransport(deadline.TransportConfig{})
//	...
//	client := &http.Client{Transport: tr}
//	http.Handle("/order", mw.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
//		req, _ := http.NewRequestWithContext(r.Context(), "GET", inventoryURL, nil)
//		resp, err := client.Do(req) // carries the time left, less 100ms
//		...
//	})))
//
// # Header formats
//
// The default is a relative time, "X-Timeout-Ms: 2750": the milliseconds
// left, which the receiver adds to its own clock, so clocks need not agree.
// The absolute form, "X-Deadline-Ms: 1767225600000", milliseconds since the
// Unix epoch, also counts the time a request spends in queues and on the
// wire, but trusts the clocks of both sides to agree. gRPC's own
// grpc-timeout ("2750m") is a third, relative, format. See [Format].
//
// # Margins and minimums
//
// Each side keeps a margin, by default 100ms: the Transport so that its
// caller has time to act on a failed call before its own deadline, the
// Middleware so that its answer is back before the caller gives up. With
// the defaults each hop thus costs 200ms of the budget; set smaller margins
// for deep call graphs within one data centre. A hop refuses to start with
// less than the minimum left, by default 200ms.
//
// # Bad input
//
// The headers come from the network. Values that are malformed, negative,
// overflowing, or grant more than MaxBudget (by default an hour) are
// ignored and logged, never trusted: they can neither extend a deadline nor
// make one later than now plus MaxBudget.
package deadline
