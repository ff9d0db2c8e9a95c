package deadline_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/resilint/resilint/runtime/deadline"
)

// roughly rounds a number of milliseconds to a multiple of 100, for output
// that does not depend on how fast the machine is.
func roughly(ms string) string {
	n, err := strconv.Atoi(ms)
	if err != nil {
		return ms
	}
	return strconv.Itoa((n+50)/100*100) + "ms"
}

func ExampleNewTransport() {
	inventory := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Println("inventory got X-Timeout-Ms:", roughly(r.Header.Get("X-Timeout-Ms")))
	}))
	defer inventory.Close()

	tr, err := deadline.NewTransport(deadline.TransportConfig{}) // X-Timeout-Ms, 100ms margin, 200ms minimum
	if err != nil {
		panic(err)
	}
	client := &http.Client{Transport: tr}

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, inventory.URL, nil)
	resp, err := client.Do(req)
	if err != nil {
		panic(err)
	}
	resp.Body.Close()
	// Output: inventory got X-Timeout-Ms: 2900ms
}

// A request that could not be served in time is not sent at all.
func ExampleTransport_RoundTrip_notEnoughTime() {
	var calls int
	network := roundTrip(func(r *http.Request) (*http.Response, error) {
		calls++
		return &http.Response{StatusCode: http.StatusOK, Body: http.NoBody, Request: r}, nil
	})
	tr, err := deadline.NewTransport(deadline.TransportConfig{Base: network})
	if err != nil {
		panic(err)
	}
	client := &http.Client{Transport: tr}

	ctx, cancel := context.WithTimeout(context.Background(), 250*time.Millisecond) // less than 100ms + 200ms
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://inventory.internal/stock", nil)
	_, err = client.Do(req)
	fmt.Println(errors.Is(err, deadline.ErrNotEnoughTime), errors.Is(err, context.DeadlineExceeded))
	fmt.Println("requests sent:", calls)
	// Output:
	// true true
	// requests sent: 0
}

type roundTrip func(*http.Request) (*http.Response, error)

func (f roundTrip) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func ExampleNewMiddleware() {
	mw, err := deadline.NewMiddleware(deadline.MiddlewareConfig{}) // 100ms margin, 200ms minimum
	if err != nil {
		panic(err)
	}
	pricing := httptest.NewServer(mw.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d, _ := r.Context().Deadline()
		fmt.Println("pricing has", roughly(strconv.FormatInt(time.Until(d).Milliseconds(), 10)))
	})))
	defer pricing.Close()

	for _, budget := range []string{"2000", "250"} {
		req, _ := http.NewRequest(http.MethodGet, pricing.URL, nil)
		req.Header.Set("X-Timeout-Ms", budget)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			panic(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Println(strings.TrimSpace(fmt.Sprintf("%s: %d %s", budget, resp.StatusCode, body)))
	}
	// Output:
	// pricing has 1900ms
	// 2000: 200
	// 250: 504 deadline: not enough time left to serve the request
}

// A service between two others: the Middleware turns the incoming header
// into the context's deadline, and the Transport passes what is left on.
func ExampleMiddleware_Wrap() {
	inventory := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Println("inventory got X-Timeout-Ms:", roughly(r.Header.Get("X-Timeout-Ms")))
	}))
	defer inventory.Close()

	mw, _ := deadline.NewMiddleware(deadline.MiddlewareConfig{})
	tr, _ := deadline.NewTransport(deadline.TransportConfig{})
	client := &http.Client{Transport: tr}
	order := httptest.NewServer(mw.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// r.Context() ends 100ms before the caller's deadline.
		req, _ := http.NewRequestWithContext(r.Context(), http.MethodGet, inventory.URL, nil)
		resp, err := client.Do(req) // and this request 100ms before that
		if err != nil {
			http.Error(w, err.Error(), http.StatusGatewayTimeout)
			return
		}
		resp.Body.Close()
	})))
	defer order.Close()

	req, _ := http.NewRequest(http.MethodPost, order.URL, nil)
	req.Header.Set("X-Timeout-Ms", "1000") // as a Transport in the caller would
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		panic(err)
	}
	resp.Body.Close()
	// Output: inventory got X-Timeout-Ms: 800ms
}

// Header values that cannot be trusted are ignored and logged; they never
// set, nor extend, a deadline.
func ExampleMiddlewareConfig_logger() {
	logger := slog.New(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{} // for a stable output
			}
			return a
		},
	}))
	mw, _ := deadline.NewMiddleware(deadline.MiddlewareConfig{Logger: logger})
	h := mw.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, ok := r.Context().Deadline()
		fmt.Println("deadline:", ok)
	}))

	for _, v := range []string{"-5", "1767225600000", "1.5s"} {
		r := httptest.NewRequest(http.MethodGet, "/price", nil)
		r.Header.Set("X-Timeout-Ms", v)
		h.ServeHTTP(httptest.NewRecorder(), r)
	}
	// Output:
	// level=WARN msg="deadline: header value ignored" header=X-Timeout-Ms value=-5 reason=malformed method=GET path=/price
	// deadline: false
	// level=WARN msg="deadline: header value ignored" header=X-Timeout-Ms value=1767225600000 reason="beyond MaxBudget" method=GET path=/price
	// deadline: false
	// level=WARN msg="deadline: header value ignored" header=X-Timeout-Ms value=1.5s reason=malformed method=GET path=/price
	// deadline: false
}

// A gateway in front of gRPC services, or a client of one, speaks
// grpc-timeout; the Middleware reads it by default, the Transport writes it
// when asked to.
func ExampleFormat() {
	grpcGateway := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Println("Grpc-Timeout:", r.Header.Get("Grpc-Timeout") != "", "X-Timeout-Ms:", r.Header.Get("X-Timeout-Ms") != "")
	}))
	defer grpcGateway.Close()

	tr, _ := deadline.NewTransport(deadline.TransportConfig{Format: deadline.FormatRelative | deadline.FormatGRPC})
	client := &http.Client{Transport: tr}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, grpcGateway.URL, nil)
	resp, err := client.Do(req)
	if err != nil {
		panic(err)
	}
	resp.Body.Close()
	fmt.Println(deadline.FormatRelative | deadline.FormatGRPC)
	// Output:
	// Grpc-Timeout: true X-Timeout-Ms: true
	// relative|grpc
}
