// Package errors stands in for github.com/pingcap/errors, a fork of
// github.com/pkg/errors: Cause returns the innermost error.
package errors

// Cause returns the innermost error err wraps.
func Cause(err error) error {
	for {
		w, ok := err.(interface{ Unwrap() error })
		if !ok {
			return err
		}
		next := w.Unwrap()
		if next == nil {
			return err
		}
		err = next
	}
}
