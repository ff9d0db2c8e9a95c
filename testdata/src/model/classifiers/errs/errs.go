// Package errs has a package's own Is and As, forwarding to the standard
// ones with their arguments in another order, and near misses that do
// something else first.
package errs

import "errors"

// Has forwards to errors.Is, target first.
func Has(target, err error) bool { // want Has:"identifies as errors.Is\\(1, 0\\)"
	return errors.Is(err, target)
}

// Into forwards to errors.As.
func Into(err error, target any) bool { // want Into:"identifies as errors.As\\(0, 1\\)"
	return errors.As(err, target)
}

// Outer asks the error's cause, not the error: it identifies, but it is
// not the standard errors.As.
func Outer(err error, target any) bool { // want Outer:"identifies$"
	return errors.As(errors.Unwrap(err), target)
}

var errLimit = errors.New("limit")

// Limited names its own target: a classifier, no forwarding.
func Limited(err error, target error) bool { // want Limited:"identifies specific$"
	return errors.Is(err, errLimit)
}

// Equal compares two errors by identity, then through their causes and
// by their text: an equality, read as errors.Is of its two parameters.
func Equal(a, b error) bool { // want Equal:"identifies as errors.Is\\(0, 1\\)"
	ca, cb := errors.Unwrap(a), errors.Unwrap(b)
	if ca != nil && ca == cb {
		return true
	}
	if a == b {
		return true
	}
	if a == nil || b == nil {
		return a == b
	}
	return a.Error() == b.Error()
}

// Like compares one error's text with the other's part: no equality, and
// not a classifier either (nothing it compares with is a constant or a
// package error).
func Like(a, b error) bool {
	if a == b {
		return true
	}
	return len(a.Error()) > 0 && a.Error()[0] == b.Error()[0]
}

// Same compares each error with itself: no equality of the two.
func Same(a, b error) bool {
	return a == a && b == b
}
