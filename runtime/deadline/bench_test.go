package deadline

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// okResponse is a base RoundTripper that answers at once.
type okResponse struct{}

func (okResponse) RoundTrip(r *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: http.StatusOK, Body: http.NoBody, Request: r}, nil
}

func BenchmarkTransport(b *testing.B) {
	tr, _ := NewTransport(TransportConfig{Base: okResponse{}})
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://inventory/", nil)
	b.ReportAllocs()
	for b.Loop() {
		resp, _ := tr.RoundTrip(req)
		resp.Body.Close()
	}
}

func BenchmarkTransportNoDeadline(b *testing.B) {
	tr, _ := NewTransport(TransportConfig{Base: okResponse{}})
	req, _ := http.NewRequest(http.MethodGet, "http://inventory/", nil)
	b.ReportAllocs()
	for b.Loop() {
		resp, _ := tr.RoundTrip(req)
		resp.Body.Close()
	}
}

func BenchmarkTransportNotEnoughTime(b *testing.B) {
	tr, _ := NewTransport(TransportConfig{Base: okResponse{}})
	ctx, cancel := context.WithTimeout(context.Background(), 250*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://inventory/", nil)
	b.ReportAllocs()
	for b.Loop() {
		_, _ = tr.RoundTrip(req)
	}
}

func BenchmarkMiddleware(b *testing.B) {
	for _, bm := range []struct {
		name   string
		header http.Header
	}{
		{"NoHeader", http.Header{}},
		{"Relative", http.Header{"X-Timeout-Ms": {"2750"}}},
		{"AllThree", http.Header{"X-Timeout-Ms": {"2750"}, "X-Deadline-Ms": {"99999999999999"}, "Grpc-Timeout": {"2S"}}},
		{"Reject", http.Header{"X-Timeout-Ms": {"150"}}},
	} {
		b.Run(bm.name, func(b *testing.B) {
			m, _ := NewMiddleware(MiddlewareConfig{MaxBudget: 1<<63 - 1})
			h := m.Wrap(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
			r := httptest.NewRequest(http.MethodGet, "/price", nil)
			r.Header = bm.header
			w := httptest.NewRecorder()
			b.ReportAllocs()
			for b.Loop() {
				h.ServeHTTP(w, r)
			}
		})
	}
}
