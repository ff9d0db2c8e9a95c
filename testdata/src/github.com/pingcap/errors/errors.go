// Package errors stands in for github.com/pingcap/errors, a fork of
// github.com/pkg/errors: Cause returns the innermost error.
package errors

import stderrors "errors"

// Cause returns the innermost error err wraps.
func Cause(err error) error {
	for u := stderrors.Unwrap(err); u != nil; u = stderrors.Unwrap(err) {
		err = u
	}
	return err
}
