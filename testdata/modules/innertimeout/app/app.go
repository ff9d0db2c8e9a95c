// Package app: a caller in this module, and helpers of this module and of
// another, each capping the context it is given at 5s.
package app

import (
	"context"
	"time"

	"example.com/app/local"
	"example.com/lib"
)

// bestEffort gives the other module's probe a 2s budget of its own: the
// library's cap is for all its callers, and this module cannot change
// it. Not reported.
func bestEffort(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	return lib.Probe(ctx)
}

// ownHelper gives this module's own helper less than the helper's 5s: the
// module can set either. Reported.
func ownHelper(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	return local.Probe(ctx) // want `local.Probe \(context.WithTimeout at local.go:\d+\) sets a 5s timeout on a context that has at most 2s left`
}

// Helpers given no context (NoContextFact), called under a caller's: this
// module's own is reported; another module's, or a helper of this module
// whose context-less call is in another module, is an API the module
// cannot change and is not.
func signIn(ctx context.Context, addr string) error {
	return local.Login(addr) // want `local.Login is given no context, and net.Dial at local.go:\d+ takes none`
}

func signInLib(ctx context.Context, addr string) error {
	return lib.Login(addr)
}

func viaLib(addr string) error { return lib.Login(addr) }

func signInVia(ctx context.Context, addr string) error {
	return viaLib(addr)
}
