// Package singleflight is a stub of golang.org/x/sync/singleflight for the
// analyzers' tests: the signatures the catalog names, no behaviour.
package singleflight

// Result is what DoChan delivers.
type Result struct {
	Val    any
	Err    error
	Shared bool
}

// Group runs one call per key for all the callers waiting on it.
type Group struct{}

func (g *Group) Do(key string, fn func() (any, error)) (v any, err error, shared bool) {
	v, err = fn()
	return v, err, false
}

func (g *Group) DoChan(key string, fn func() (any, error)) <-chan Result {
	ch := make(chan Result, 1)
	v, err := fn()
	ch <- Result{Val: v, Err: err}
	return ch
}

func (g *Group) Forget(key string) {}
