// Package retrynesting defines an Analyzer that reports retries nested
// inside retries.
//
// # Analyzer retrynesting
//
// retrynesting: report a retry whose attempts reach another retry (retry amplification)
//
// Every layer that retries multiplies the load on the dependency behind it.
// A handler that makes 3 attempts, each calling a client that makes 3
// attempts, each calling an SDK that makes 3 attempts, sends up to
// 3 × 3 × 3 = 27 requests downstream for one request from upstream. When
// the dependency slows down, every caller multiplies its traffic exactly
// when it can least take it: a retry storm that turns a brown-out into an
// outage and keeps it down after the cause is gone.
//
// The check finds retries written by hand (a loop in which a failed
// operation leads to another iteration and success leaves it, including
// labeled loops and goto), retries of libraries (cenkalti/backoff v4 and
// v5, avast/retry-go, sethvargo/go-retry, hashicorp/go-retryablehttp,
// k8s.io/client-go/util/retry, failsafe-go, resilint's runtime/retry),
// and reports each retry whose operation reaches another one: in the same
// function, through helpers and closures, and in other packages. The
// message gives the amplification when the attempt bounds are constant:
//
//	for attempt := 0; attempt < 3; attempt++ {   // nested retry: ... up to 9 downstream calls per request
//		if err := client.Charge(ctx, req); err == nil { // Charge retries 3 times itself
//			return nil
//		}
//	}
//
// Fix it by retrying at one layer only, normally the outermost one that
// knows whether the operation is idempotent and how long the caller will
// wait; switch the inner retries off (for go-retryablehttp, RetryMax: 0),
// and share a retry budget (runtime/retry's Budget) across the process so
// that retries stay a small fraction of requests. The suggested fix, when
// every fallible call of an attempt retries by itself, makes the outer
// retry a single attempt: a library's attempt option, or the constant
// bound in a loop's header.
//
// With resilint -mesh DIR, a retry whose requests go to a host the
// service mesh retries too (the host read from a constant URL) is
// reported with both layers counted: "3 attempts in code × 3 by the mesh
// (Istio default) = up to 9 calls per request".
//
// Loops that are not retries are not reported: pagination, work-queue and
// consumer loops (success goes round again), polling a condition, ranging
// over items even when each item's call retries, loops whose failure path
// returns.
package retrynesting
