package interceptors

import (
	"math"
	"math/rand/v2"
	"time"

	grpc_retry "github.com/grpc-ecosystem/go-grpc-middleware/retry"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
)

// Tripling: a delay function of the package's own, 60ms times 3 to the
// attempt, the same in every client: reported at the function.
func Tripling(target string) (*grpc.ClientConn, error) {
	return grpc.NewClient(target, grpc.WithUnaryInterceptor(grpc_retry.UnaryClientInterceptor(
		grpc_retry.WithMax(6),
		grpc_retry.WithBackoff(func(attempt uint) time.Duration { // want `grpc_retry.UnaryClientInterceptor waits without jitter \(WithBackoff: a function whose delays have no random part\)`
			return 60 * time.Millisecond * time.Duration(math.Pow(3, float64(attempt)))
		}),
		grpc_retry.WithCodes(codes.Unavailable, codes.ResourceExhausted),
	)))
}

// Near miss: the function draws its delay at random.
func Spread(target string) (*grpc.ClientConn, error) {
	return grpc.NewClient(target, grpc.WithUnaryInterceptor(grpc_retry.UnaryClientInterceptor(
		grpc_retry.WithMax(6),
		grpc_retry.WithBackoff(func(attempt uint) time.Duration {
			return rand.N(60 * time.Millisecond * time.Duration(math.Pow(3, float64(attempt))))
		}),
	)))
}
