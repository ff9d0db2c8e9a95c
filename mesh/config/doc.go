// Package config reads service-mesh configuration with the meshes' own
// schemas: Istio VirtualService and DestinationRule (networking.istio.io
// v1, v1beta1 and v1alpha3) through istio.io/api's types, and Envoy v3
// route and cluster configuration through go-control-plane's types.
//
// Input is YAML or JSON: single documents, multi-document files,
// Kubernetes Lists, and directories of them (walked recursively, as kept
// in Git or rendered by Helm or Kustomize). Every field keeps the line it
// was read from, so that a finding can point at it, and invalid input is
// an error naming the file and line: YAML that does not parse, a field the
// schema does not have, a value of the wrong type, an Istio kind or
// version this package does not read, an Envoy @type it does not know.
// Documents of other API groups (Deployments, Services, ConfigMaps...) are
// skipped; Kubernetes Services are kept by name, as hosts of the mesh.
//
// Envoy documents are recognized by their "@type"
// (envoy.config.route.v3.RouteConfiguration, envoy.config.cluster.v3.Cluster,
// envoy.config.listener.v3.Listener — the route configuration inlined in
// its HTTP connection manager — and envoy.service.discovery.v3.DiscoveryResponse),
// or as a bootstrap by a top-level static_resources.
//
// Durations may be written as Istio writes them ("25ms", "1m", "2s") or in
// protobuf's JSON form ("0.025s").
package config
