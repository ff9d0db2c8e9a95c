// Package errors is a stub of k8s.io/apimachinery/pkg/api/errors: the
// parts resilint's catalog names.
package errors

// StatusError is an error the API server returned.
type StatusError struct{ Reason string }

func (e *StatusError) Error() string { return e.Reason }

// IsConflict reports whether err says the object was modified since it
// was read.
func IsConflict(err error) bool {
	se, ok := err.(*StatusError)
	return ok && se.Reason == "Conflict"
}

// IsNotFound reports whether err says the object does not exist.
func IsNotFound(err error) bool {
	se, ok := err.(*StatusError)
	return ok && se.Reason == "NotFound"
}
