// Package routes is what the service mesh does to a request for each
// destination host — how many calls one request may become, and whether a
// request that reached the upstream may be sent again — as the Go
// analyzers see it.
//
// It is the contract between the mesh layer and the analyzers: resilint
// -mesh reads the mesh configuration (mesh/config, mesh/check), writes a
// Table, and sets it as the -<check>.mesh flag of the checks that join
// code and mesh (retrynesting, idempotency). A flag, so that the table is
// part of the cache key of their results and travels the way the other
// settings of a check do. The package uses the standard library only:
// the analyzers never build the Istio and Envoy types.
package routes
