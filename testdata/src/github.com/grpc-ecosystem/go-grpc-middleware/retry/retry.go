// Package grpc_retry is a stub of github.com/grpc-ecosystem/go-grpc-middleware/retry for tests:
// client interceptors that retry each call WithMax more times (none by
// default), waiting the WithBackoff function between attempts.
package grpc_retry

import (
	"context"
	"math/rand"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
)

type BackoffFunc func(attempt uint) time.Duration

type BackoffFuncContext func(ctx context.Context, attempt uint) time.Duration

type CallOption struct {
	grpc.CallOption
	apply func(*options)
}

type options struct {
	max     uint
	backoff BackoffFuncContext
	codes   []codes.Code
}

func WithMax(maxRetries uint) CallOption {
	return CallOption{apply: func(o *options) { o.max = maxRetries }}
}

func WithBackoff(bf BackoffFunc) CallOption {
	return CallOption{apply: func(o *options) {
		o.backoff = func(_ context.Context, attempt uint) time.Duration { return bf(attempt) }
	}}
}

func WithBackoffContext(bf BackoffFuncContext) CallOption {
	return CallOption{apply: func(o *options) { o.backoff = bf }}
}

func WithCodes(retryCodes ...codes.Code) CallOption {
	return CallOption{apply: func(o *options) { o.codes = retryCodes }}
}

func Disable() CallOption { return WithMax(0) }

func BackoffLinear(waitBetween time.Duration) BackoffFunc {
	return func(uint) time.Duration { return waitBetween }
}

func BackoffLinearWithJitter(waitBetween time.Duration, jitterFraction float64) BackoffFunc {
	return func(uint) time.Duration {
		return time.Duration(float64(waitBetween) * (1 + jitterFraction*(rand.Float64()*2-1)))
	}
}

func BackoffExponential(scalar time.Duration) BackoffFunc {
	return func(attempt uint) time.Duration { return scalar << attempt }
}

func BackoffExponentialWithJitter(scalar time.Duration, jitterFraction float64) BackoffFunc {
	return func(attempt uint) time.Duration {
		return time.Duration(float64(scalar<<attempt) * (1 + jitterFraction*(rand.Float64()*2-1)))
	}
}

func UnaryClientInterceptor(optFuncs ...CallOption) grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		return invoker(ctx, method, req, reply, cc, opts...)
	}
}

func StreamClientInterceptor(optFuncs ...CallOption) grpc.StreamClientInterceptor {
	return func(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string, streamer grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
		return streamer(ctx, desc, cc, method, opts...)
	}
}
