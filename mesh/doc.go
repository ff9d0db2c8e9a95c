// Package mesh is the root of resilint's service-mesh layer: the retry,
// timeout, connection-pool and outlier-detection settings of Istio and
// Envoy, read with their own schemas (mesh/config), checked (mesh/check),
// joined with the retries of the Go code (resilint -mesh) and drawn as a
// graph of services and retry layers (mesh/graph).
//
// The analyzers do not import it: what they need of the mesh reaches them
// as a table of routes (analyzers/internal/meshroutes), so that the suite
// under go vet, golangci-lint or nogo never builds the Istio and Envoy
// types.
package mesh
