// Module breakerbench measures resilint's runtime/breaker and runtime/bulkhead
// side by side with their peers. It is a module of its own so that the peers
// never enter the runtime's dependencies.
module github.com/resilint/resilint/bench/breakerbench

go 1.26.0

require (
	github.com/failsafe-go/failsafe-go v0.9.8
	github.com/resilint/resilint/runtime v0.0.0
	github.com/sony/gobreaker/v2 v2.4.0
	golang.org/x/sync v0.25.0
)

require github.com/bits-and-blooms/bitset v1.24.4 // indirect

replace github.com/resilint/resilint/runtime => ../../runtime
