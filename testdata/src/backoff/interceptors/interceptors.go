// Package interceptors: go-grpc-middleware's retry interceptors retry
// every call made through the connection they are installed on. Their
// configuration is judged where they are made: a delay function of no
// random part is reported once the options make the interceptor retry.
package interceptors

import (
	"time"

	grpc_retry "github.com/grpc-ecosystem/go-grpc-middleware/retry"
	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/retry"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
)

// Linear retries every call three times, 100ms apart, the same for every
// client: reported once, for both interceptors that share the options.
func Linear(target string) (*grpc.ClientConn, error) {
	opts := []grpc_retry.CallOption{
		grpc_retry.WithMax(3),
		grpc_retry.WithBackoff(grpc_retry.BackoffLinear(100 * time.Millisecond)), // want `grpc_retry.UnaryClientInterceptor waits without jitter \(grpc_retry.BackoffLinear\): clients that failed together retry together`
		grpc_retry.WithCodes(codes.Unavailable),
	}
	return grpc.NewClient(target,
		grpc.WithUnaryInterceptor(grpc_retry.UnaryClientInterceptor(opts...)),
		grpc.WithStreamInterceptor(grpc_retry.StreamClientInterceptor(opts...)),
	)
}

// Exponential (v2), options written in the call, the count configured.
func Exponential(target string, retries uint) (*grpc.ClientConn, error) {
	return grpc.NewClient(target, grpc.WithChainUnaryInterceptor(
		retry.UnaryClientInterceptor(
			retry.WithBackoff(retry.BackoffExponential(100*time.Millisecond)), // want `retry.UnaryClientInterceptor waits without jitter \(retry.BackoffExponential\)`
			retry.WithMax(retries),
		),
	))
}

// Jittered: the library's jittered sibling, not reported.
func Jittered(target string) (*grpc.ClientConn, error) {
	return grpc.NewClient(target, grpc.WithUnaryInterceptor(grpc_retry.UnaryClientInterceptor(
		grpc_retry.WithMax(3),
		grpc_retry.WithBackoff(grpc_retry.BackoffLinearWithJitter(100*time.Millisecond, 0.2)),
	)))
}

// Bounded: v2's capped jittered exponential, not reported.
func Bounded(target string) (*grpc.ClientConn, error) {
	return grpc.NewClient(target, grpc.WithUnaryInterceptor(retry.UnaryClientInterceptor(
		retry.WithMax(5),
		retry.WithBackoff(retry.BackoffExponentialWithJitterBounded(100*time.Millisecond, 0.5, 5*time.Second)),
	)))
}

// NoMax: without WithMax the interceptor retries nothing by itself (the
// library's default is no retry); the calls that pass WithMax are not
// followed. Not reported.
func NoMax(target string) (*grpc.ClientConn, error) {
	return grpc.NewClient(target, grpc.WithUnaryInterceptor(grpc_retry.UnaryClientInterceptor(
		grpc_retry.WithBackoff(grpc_retry.BackoffLinear(100*time.Millisecond)),
	)))
}

// Disabled: WithMax(0) retries nothing. Not reported.
func Disabled(target string) (*grpc.ClientConn, error) {
	return grpc.NewClient(target, grpc.WithUnaryInterceptor(grpc_retry.UnaryClientInterceptor(
		grpc_retry.WithMax(0),
		grpc_retry.WithBackoff(grpc_retry.BackoffLinear(100*time.Millisecond)),
	)))
}

// Default: WithMax without WithBackoff waits the library's default, a
// jittered linear backoff. Not reported.
func Default(target string) (*grpc.ClientConn, error) {
	return grpc.NewClient(target, grpc.WithUnaryInterceptor(retry.UnaryClientInterceptor(retry.WithMax(3))))
}

// Settle: a constant pause under 100ms, as in a hand-written loop, is not
// judged for jitter.
func Settle(target string) (*grpc.ClientConn, error) {
	return grpc.NewClient(target, grpc.WithUnaryInterceptor(retry.UnaryClientInterceptor(
		retry.WithMax(3),
		retry.WithBackoff(retry.BackoffLinear(20*time.Millisecond)),
	)))
}

// Given: options from the caller are not known. Not reported.
func Given(target string, opts ...grpc_retry.CallOption) (*grpc.ClientConn, error) {
	return grpc.NewClient(target, grpc.WithUnaryInterceptor(grpc_retry.UnaryClientInterceptor(opts...)))
}
