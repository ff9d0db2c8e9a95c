// Package config is a stand-in for aws-sdk-go-v2's config package: its
// loaders read the environment and the shared files.
package config

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
)

type LoadOptions struct {
	Region            string
	SharedConfigFiles []string
}

// WithRegion sets the region.
func WithRegion(v string) func(*LoadOptions) error {
	return func(o *LoadOptions) error { o.Region = v; return nil }
}

// LoadDefaultConfig reads the environment and the shared config files.
func LoadDefaultConfig(ctx context.Context, optFns ...func(*LoadOptions) error) (aws.Config, error) {
	if err := ctx.Err(); err != nil {
		return aws.Config{}, err
	}
	var o LoadOptions
	for _, fn := range optFns {
		if err := fn(&o); err != nil {
			return aws.Config{}, err
		}
	}
	return aws.Config{Region: o.Region}, nil
}

type SharedConfig struct{ Profile, Region string }

type LoadSharedConfigOptions struct{ ConfigFiles []string }

// LoadSharedConfigProfile reads one profile of the shared config files.
func LoadSharedConfigProfile(ctx context.Context, profile string, optFns ...func(*LoadSharedConfigOptions)) (SharedConfig, error) {
	if err := ctx.Err(); err != nil {
		return SharedConfig{}, err
	}
	return SharedConfig{Profile: profile}, nil
}
