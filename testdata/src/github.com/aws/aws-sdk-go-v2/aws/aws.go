// Package aws is a stand-in for aws-sdk-go-v2's aws package: the shape of
// its Config, for the catalog's rows and the fixtures.
package aws

import "context"

// CredentialsProvider retrieves credentials when a request is signed.
type CredentialsProvider interface {
	Retrieve(ctx context.Context) (Credentials, error)
}

type Credentials struct{ AccessKeyID, SecretAccessKey string }

// Config is what a client is made from.
type Config struct {
	Region      string
	Credentials CredentialsProvider
}
