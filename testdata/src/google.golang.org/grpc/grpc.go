// Package grpc is a stub of google.golang.org/grpc for tests: a client
// connection, the dial options that install interceptors, and the one
// that configures reconnects.
package grpc

import (
	"context"
	"time"

	"google.golang.org/grpc/backoff"
)

type ClientConn struct{}

type CallOption interface{ callOption() }

type UnaryInvoker func(ctx context.Context, method string, req, reply any, cc *ClientConn, opts ...CallOption) error

type UnaryClientInterceptor func(ctx context.Context, method string, req, reply any, cc *ClientConn, invoker UnaryInvoker, opts ...CallOption) error

type ClientStream interface {
	SendMsg(m any) error
	RecvMsg(m any) error
}

type StreamDesc struct{ ServerStreams, ClientStreams bool }

type Streamer func(ctx context.Context, desc *StreamDesc, cc *ClientConn, method string, opts ...CallOption) (ClientStream, error)

type StreamClientInterceptor func(ctx context.Context, desc *StreamDesc, cc *ClientConn, method string, streamer Streamer, opts ...CallOption) (ClientStream, error)

type DialOption interface{ dialOption() }

type option struct{}

func (option) dialOption() {}

func WithUnaryInterceptor(f UnaryClientInterceptor) DialOption { return option{} }

// ConnectParams configures how a connection reconnects.
type ConnectParams struct {
	Backoff           backoff.Config
	MinConnectTimeout time.Duration
}

func WithConnectParams(p ConnectParams) DialOption { return option{} }

func WithStreamInterceptor(f StreamClientInterceptor) DialOption { return option{} }

func WithChainUnaryInterceptor(fs ...UnaryClientInterceptor) DialOption { return option{} }

func NewClient(target string, opts ...DialOption) (*ClientConn, error) { return &ClientConn{}, nil }

// Dial connects in the background and returns at once, unless an option
// asks it to block.
func Dial(target string, opts ...DialOption) (*ClientConn, error) {
	return DialContext(context.Background(), target, opts...)
}

// DialContext's context bounds only a dial that blocks.
func DialContext(ctx context.Context, target string, opts ...DialOption) (*ClientConn, error) {
	for _, o := range opts {
		if _, ok := o.(blocking); ok {
			<-ctx.Done() // stands for waiting until the connection is up
			return nil, ctx.Err()
		}
	}
	return &ClientConn{}, nil
}

type blocking struct{ option }

func WithBlock() DialOption { return blocking{} }

func WithReturnConnectionError() DialOption { return blocking{} }

func WithInsecure() DialOption { return option{} }

func (cc *ClientConn) Invoke(ctx context.Context, method string, args, reply any, opts ...CallOption) error {
	return nil
}

func (cc *ClientConn) Close() error { return nil }
