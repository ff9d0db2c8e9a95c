// Package check holds the mesh checks: the rules of the `mesh` check
// family, run on the configuration mesh/config reads, and the effective
// retry policy of every destination host (what the mesh does to a request,
// Istio's defaults included), which resilint -mesh joins with the retries
// of the Go code and mesh/graph draws.
//
// The rules, one category each (docs/checks/mesh.md):
//
//   - retry-budget: a route retries (by its own policy or by Istio's
//     default) and its destination has no retry budget and no limit on
//     concurrent retries;
//   - retry-timeout: the route's timeout is shorter than perTryTimeout ×
//     (retries + 1), so the retries configured cannot all happen;
//   - per-try-timeout: a route retries without a per-try timeout;
//   - retry-non-idempotent: a route that serves POST or PATCH without
//     requiring an idempotency-key header retries on 5xx, reset or gateway
//     errors (a request the server may have processed is sent again);
//   - pending-unbounded: a connection pool that limits connections but not
//     the requests waiting for one (no fail-fast);
//   - ejection-all: outlier detection that may eject every endpoint
//     (maxEjectionPercent 100);
//   - ejection-threshold: outlier detection so eager (1 or 2 consecutive
//     errors) that one bad deploy ejects most endpoints at once.
//
// Where a field is missing, the finding states the default that applies
// and whose it is: Istio 1.32's (istio.io/api v1.32.0) for Istio resources,
// Envoy's v3 API (go-control-plane/envoy v1.40.0) for Envoy resources.
package check
