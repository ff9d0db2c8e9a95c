package deadline

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// Issue 11 (6): a deadline header copied from an incoming request onto an
// outgoing one must not pass the Transport unchanged: the default
// Middleware downstream reads X-Timeout-Ms, X-Deadline-Ms and Grpc-Timeout,
// and a stale one makes it answer 504.
func TestTransportRemovesEveryHeaderTheMiddlewareReads(t *testing.T) {
	stale := http.Header{
		"X-Timeout-Ms":  {"1"},
		"X-Deadline-Ms": {"1"},
		"Grpc-Timeout":  {"1m"},
	}
	for _, c := range []struct {
		name string
		cfg  TransportConfig
	}{
		{"default", TransportConfig{}},
		{"absolute", TransportConfig{Format: FormatAbsolute}},
		{"custom names", TransportConfig{TimeoutHeader: "X-Envoy-Expected-Rq-Timeout-Ms", DeadlineHeader: "X-Request-Deadline"}},
		{"grpc", TransportConfig{Format: FormatGRPC}},
	} {
		for _, withDeadline := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/deadline=%v", c.name, withDeadline), func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					rec := &recorder{}
					c.cfg.Base = rec
					tr := newTransport(t, c.cfg)
					ctx := context.Background()
					if withDeadline {
						var cancel context.CancelFunc
						ctx, cancel = context.WithTimeout(ctx, 10*time.Second)
						defer cancel()
					}
					req := httptest.NewRequestWithContext(ctx, http.MethodGet, "http://next.example/", nil)
					for k, v := range stale {
						req.Header[k] = v
					}
					resp, err := tr.RoundTrip(req)
					if err != nil {
						t.Fatal(err)
					}
					resp.Body.Close()

					// What a Middleware reading the same names makes of them.
					s, _ := MiddlewareConfig{TimeoutHeader: c.cfg.TimeoutHeader, DeadlineHeader: c.cfg.DeadlineHeader}.settings()
					end, found := s.headerDeadline(rec.last.Header, time.Now(), nil)
					switch {
					case withDeadline && (!found || end.Before(time.Now().Add(9*time.Second))):
						t.Errorf("%s: sent %v; the next hop reads a deadline %v away, want about 10s", c.name, rec.last.Header, time.Until(end))
					case !withDeadline && found:
						t.Errorf("%s, no deadline: sent %v; the next hop reads a deadline %v away, want none", c.name, rec.last.Header, time.Until(end))
					}
					for k, v := range stale {
						if got := rec.last.Header[k]; len(got) == 1 && got[0] == v[0] {
							t.Errorf("%s (deadline %v): stale %s: %s passed through", c.name, withDeadline, k, v[0])
						}
					}
					if got := req.Header.Get("Grpc-Timeout"); got != "1m" {
						t.Errorf("the caller's request was modified: Grpc-Timeout %q", got)
					}
				})
			})
		}
	}
}

// Issue 11 (6): the documentation says ignored header values are logged;
// with no Logger they went nowhere. A nil Logger means slog.Default().
func TestMiddlewareLogsIgnoredValuesByDefault(t *testing.T) {
	var buf bytes.Buffer
	old := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&buf, nil)))
	defer slog.SetDefault(old)

	mw := &Middleware{} // the zero Middleware, no Logger
	r := httptest.NewRequest(http.MethodGet, "/", nil)
	r.Header.Set("X-Timeout-Ms", "soon")
	mw.Wrap(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {})).ServeHTTP(httptest.NewRecorder(), r)
	if !strings.Contains(buf.String(), "deadline: header value ignored") || !strings.Contains(buf.String(), "value=soon") {
		t.Errorf("slog.Default got %q; want the ignored value logged", buf.String())
	}
}
