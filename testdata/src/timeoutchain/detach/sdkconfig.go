package detach

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
)

type identity struct{ Account string }

func callerIdentity(ctx context.Context, cfg aws.Config) (identity, error) {
	if _, err := cfg.Credentials.Retrieve(ctx); err != nil {
		return identity{}, err
	}
	return identity{}, nil
}

// The SDK's configuration is read from the environment and the shared
// files under a TODO: nothing leaves the host, and the call that reaches
// the service is given ctx. Not reported.
func whoAmI(ctx context.Context, region string) (identity, error) {
	cfg, err := config.LoadDefaultConfig(context.TODO(), config.WithRegion(region))
	if err != nil {
		return identity{}, err
	}
	return callerIdentity(ctx, cfg)
}

// The near miss: the call that reaches the service under a TODO.
func whoAmIDetached(ctx context.Context, region string) (identity, error) {
	cfg, err := config.LoadDefaultConfig(ctx, config.WithRegion(region))
	if err != nil {
		return identity{}, err
	}
	return callerIdentity(context.TODO(), cfg) // want `context.TODO\(\) drops`
}
