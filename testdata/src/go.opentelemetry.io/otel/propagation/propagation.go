// Package propagation is a stub of OpenTelemetry's propagation API for
// tests: a propagator reads values carried by a message onto a context.
package propagation

import "context"

type TextMapCarrier interface {
	Get(key string) string
	Set(key, value string)
	Keys() []string
}

type MapCarrier map[string]string

func (c MapCarrier) Get(key string) string { return c[key] }
func (c MapCarrier) Set(key, value string) { c[key] = value }
func (c MapCarrier) Keys() []string {
	out := make([]string, 0, len(c))
	for k := range c {
		out = append(out, k)
	}
	return out
}

type TextMapPropagator interface {
	Inject(ctx context.Context, carrier TextMapCarrier)
	Extract(ctx context.Context, carrier TextMapCarrier) context.Context
	Fields() []string
}
