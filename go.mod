module github.com/resilint/resilint

go 1.26.0

require (
	github.com/avast/retry-go/v4 v4.7.0
	github.com/cenkalti/backoff/v4 v4.3.0
	github.com/golangci/plugin-module-register v0.1.2
	github.com/hashicorp/go-retryablehttp v0.7.8
	github.com/resilint/resilint/runtime v0.0.0
	golang.org/x/tools v0.52.0
)

require github.com/stretchr/testify v1.12.1 // indirect

require (
	github.com/hashicorp/go-cleanhttp v0.5.2 // indirect
	golang.org/x/mod v0.42.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
)

replace github.com/resilint/resilint/runtime => ./runtime
