module github.com/resilint/resilint/bench/retrybench

go 1.26.0

require (
	github.com/avast/retry-go/v4 v4.7.0
	github.com/cenkalti/backoff/v4 v4.3.0
	github.com/cenkalti/backoff/v5 v5.0.3
	github.com/failsafe-go/failsafe-go v0.9.8
	github.com/resilint/resilint/runtime v0.0.0
	github.com/sethvargo/go-retry v0.5.0
)

require github.com/bits-and-blooms/bitset v1.24.4 // indirect

replace github.com/resilint/resilint/runtime => ../../runtime
