// Package metricdata is a stub of OpenTelemetry's metric data types for
// tests.
package metricdata

type Metrics struct {
	Name string
	Data any
}

type ScopeMetrics struct{ Metrics []Metrics }

type ResourceMetrics struct{ ScopeMetrics []ScopeMetrics }
