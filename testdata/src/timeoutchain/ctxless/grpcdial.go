package ctxless

import (
	"context"

	"google.golang.org/grpc"
)

// dialBlocking waits for the connection under no context: reported.
func dialBlocking(ctx context.Context, target string) (*grpc.ClientConn, error) {
	return grpc.Dial(target, grpc.WithInsecure(), grpc.WithBlock()) // want `grpc.Dial takes no context`
}

// dialLazy returns at once and connects in the background: the context
// would bound nothing. Not reported.
func dialLazy(ctx context.Context, target string) (*grpc.ClientConn, error) {
	return grpc.Dial(target, grpc.WithInsecure())
}

// dialLazyBg gives DialContext a Background it does not wait under: not
// reported.
func dialLazyBg(ctx context.Context, target string) (*grpc.ClientConn, error) {
	return grpc.DialContext(context.Background(), target, grpc.WithInsecure())
}

// dialBlockingBg waits for the connection under Background: reported.
func dialBlockingBg(ctx context.Context, target string) (*grpc.ClientConn, error) {
	opts := []grpc.DialOption{grpc.WithInsecure(), grpc.WithReturnConnectionError()}
	return grpc.DialContext(context.Background(), target, opts...) // want `context.Background\(\) drops the deadline and cancellation of ctx`
}

// dialGiven dials with options its caller chose: whether it blocks is
// not known here. Not reported.
func dialGiven(ctx context.Context, target string, opts ...grpc.DialOption) (*grpc.ClientConn, error) {
	return grpc.Dial(target, opts...)
}
