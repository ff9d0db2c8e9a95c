// Package idempotency is a stub of resilint's runtime/idempotency for tests.
package idempotency

import (
	"context"
	"crypto/rand"
	"net/http"
)

const DefaultHeader = "Idempotency-Key"

func NewKey() string { return rand.Text() }

func WithKey(ctx context.Context, key string) context.Context { return ctx }

type Transport struct {
	Base   http.RoundTripper
	Header string
}

func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) { return nil, nil }
