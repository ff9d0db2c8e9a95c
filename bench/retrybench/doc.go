// Package retrybench compares the cost of resilint's runtime/retry with other
// Go retry libraries, side by side in one run. It is a module of its own so
// that the peers never enter the runtime's dependencies.
//
// Run, from this directory:
//
//	go test -run '^$' -bench . -count 6 | tee bench.txt
//	go run golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da -col /lib bench.txt
//
// Every library is configured alike and used as its documentation intends,
// including what must be built per call because it is stateful (backoff
// objects) or what may be built once because it is safe to share (policies,
// executors, option lists):
//
//   - Success: the first attempt succeeds; up to 3 attempts, exponential
//     backoff from 100ms capped at 10s, with jitter.
//   - FailTwice: two failures then success; up to 3 attempts, a constant
//     1ns delay, so that the numbers are the libraries' overhead plus two
//     minimal sleeps.
package retrybench
