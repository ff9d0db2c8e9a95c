package a

import (
	"context"
	"errors"
)

// gate goes round only when the hook its builder set picks the failure.
type gate struct {
	again func(error) bool
	seen  int
}

// retryable answers true only where the hook says so; nil: never.
func (g *gate) retryable(err error) bool {
	if g.again != nil {
		if g.again(err) {
			g.seen++
			return true
		}
	}
	return false
}

// onHook runs the inner retry a second time only when the caller's hook
// picks the failure (a refresh, then one more try): which failures those
// are is the hook's, not in the code. No finding.
func (g *gate) onHook(ctx context.Context) error {
	retried := false
	for {
		err := fetchPrice(ctx)
		if err == nil {
			return nil
		}
		if !retried && g.retryable(err) {
			retried = true
			continue
		}
		return err
	}
}

// judge answers true on every failure but one, whatever any hook says.
type judge struct{ log func(error) }

func (j *judge) retryable(err error) bool {
	if j.log != nil {
		j.log(err)
	}
	return !errors.Is(err, context.Canceled)
}

// The near miss: a predicate of the package that a hook does not gate
// goes round on every failure: reported.
func (j *judge) onPolicy(ctx context.Context) error {
	retried := false
	for { // want `nested retry: retry loop makes 2 attempts, each reaching fetchPrice`
		err := fetchPrice(ctx)
		if err == nil {
			return nil
		}
		if !retried && j.retryable(err) {
			retried = true
			continue
		}
		return err
	}
}

// lenient goes round on every failure unless its hook says otherwise:
// with no hook set, everything is retried.
type lenient struct{ again func(error) bool }

func (l *lenient) retryable(err error) bool {
	return l.again == nil || l.again(err)
}

// The near miss: a hook that can only veto leaves a retry of every
// failure: reported.
func (l *lenient) onVeto(ctx context.Context) error {
	retried := false
	for { // want `nested retry: retry loop makes 2 attempts, each reaching fetchPrice`
		err := fetchPrice(ctx)
		if err == nil {
			return nil
		}
		if !retried && l.retryable(err) {
			retried = true
			continue
		}
		return err
	}
}

// strict answers with the hook's own condition.
type strict struct{ again func(error) bool }

func (s *strict) retryable(err error) bool {
	return s.again != nil && s.again(err)
}

// As onHook: the hook picks the failures. No finding.
func (s *strict) onHook(ctx context.Context) error {
	retried := false
	for {
		err := fetchPrice(ctx)
		if err == nil {
			return nil
		}
		if !retried && s.retryable(err) {
			retried = true
			continue
		}
		return err
	}
}
