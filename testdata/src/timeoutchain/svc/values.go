package svc

import "context"

type tenantKey struct{}

// WithTenant returns ctx carrying the tenant: a context derived by values
// only (ValueContextFact).
func WithTenant(ctx context.Context, tenant string) context.Context {
	if tenant == "" {
		return ctx
	}
	return context.WithValue(ctx, tenantKey{}, tenant)
}
