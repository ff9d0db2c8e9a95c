// Package classifiers has functions that return true only on failures
// they picked out (IdentifyFact), and near misses.
package classifiers

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"

	"model/classifiers/errs"
)

var errStale = errors.New("stale connection")

var errBusy = errors.New("held by another owner")

// stale picks out one error value of no outage kind: specific.
func stale(err error) bool { // want stale:"identifies specific"
	return errors.Is(err, errStale)
}

// staleOrBusy picks out two such values.
func staleOrBusy(err error) bool { // want staleOrBusy:"identifies specific"
	return err == errStale || errors.Is(err, errBusy)
}

// viaStale asks a specific classifier.
func viaStale(err error) bool { // want viaStale:"identifies specific"
	if stale(err) {
		return true
	}
	return false
}

// timedOut picks out a deadline passed, which an outage gives every
// client (a catalog Outage row): not specific.
func timedOut(err error) bool { // want timedOut:"identifies$"
	return errors.Is(err, context.DeadlineExceeded)
}

// staleOrTimedOut mixes both: not specific.
func staleOrTimedOut(err error) bool { // want staleOrTimedOut:"identifies$"
	return stale(err) || timedOut(err)
}

type sqlState interface{ SQLState() string }

func code(err error) string {
	var s sqlState
	if errors.As(err, &s) {
		return s.SQLState()
	}
	return ""
}

// serialization: a code computed from the error, compared with constants.
func serialization(err error) bool { // want serialization:"identifies$"
	c := code(err)
	return c == "40001" || c == "CR000"
}

// deadlockOrSerialization: a switch on the code.
func deadlockOrSerialization(err error) bool { // want deadlockOrSerialization:"identifies$"
	switch code(err) {
	case "40001", "40P01":
		return true
	}
	return false
}

type apiError struct{ Status int }

func (e *apiError) Error() string { return "api error" }

// throttled: errors.As guards the return of a field test.
func throttled(err error) bool { // want throttled:"identifies$"
	var ae *apiError
	if errors.As(err, &ae) {
		return ae.Status == 429
	}
	return false
}

// transient: calls the others, or picks a sentinel, or the error's text.
func transient(err error) bool { // want transient:"identifies$"
	if serialization(err) || throttled(err) {
		return true
	}
	if err == errStale {
		return true
	}
	return strings.Contains(err.Error(), "connection reset")
}

// typed: a case of a type switch on the error.
func typed(err error) bool { // want typed:"identifies$"
	switch err.(type) {
	case *apiError:
		return true
	default:
		return false
	}
}

// notPermanent is true on every failure but one: no fact.
func notPermanent(err error) bool {
	return !errors.Is(err, errStale)
}

// anyError is true on every failure: no fact.
func anyError(err error) bool {
	if err == nil {
		return false
	}
	return true
}

// either is true when one of two tests holds, one of which identifies
// nothing: no fact.
func either(err error, force bool) bool {
	return serialization(err) || force
}

// callError carries the response a call was refused with.
type callError struct {
	Resp *http.Response
}

func (e *callError) Error() string { return "refused" }

// pending picks out, after early refusals, a 400 carried by the error:
// the request refused, no outage: specific.
func pending(err error) bool { // want pending:"identifies specific"
	var ce *callError
	if !errors.As(err, &ce) {
		return false
	}
	if ce.Resp.StatusCode != http.StatusBadRequest {
		return false
	}
	return strings.Contains(ce.Error(), "pending")
}

// unavailable picks out a 503 the same way: a family an outage gives
// every client, not specific.
func unavailable(err error) bool { // want unavailable:"identifies$"
	var ce *callError
	if !errors.As(err, &ce) {
		return false
	}
	if ce.Resp.StatusCode != http.StatusServiceUnavailable {
		return false
	}
	return true
}

// unguarded returns true after a test that identifies nothing: no fact.
func unguarded(err error, force bool) bool {
	if !force {
		return false
	}
	return true
}

// pendingWrapped is pending with a package's own errors.As, which
// forwards to the standard one: the target it fills is computed from the
// error, so the 400 it carries is the error's: specific.
func pendingWrapped(err error) bool { // want pendingWrapped:"identifies specific"
	var ce *callError
	if !errs.Into(err, &ce) {
		return false
	}
	if ce.Resp.StatusCode != http.StatusBadRequest {
		return false
	}
	return strings.Contains(ce.Error(), "pending")
}

// pendingOuter asks the cause through a function that is no forwarder:
// its target is not known to be filled from the error, so the status it
// reads names nothing and what follows identifies nothing specific.
func pendingOuter(err error) bool { // want pendingOuter:"identifies$"
	var ce *callError
	if !errs.Outer(err, &ce) {
		return false
	}
	if ce.Resp.StatusCode != http.StatusBadRequest {
		return false
	}
	return true
}

// staleWrapped is stale through a forwarding errors.Is, arguments
// swapped: specific.
func staleWrapped(err error) bool { // want staleWrapped:"identifies specific"
	return errs.Has(errStale, err)
}

// unexpectedWrapped names a connection cut short through the same
// forwarder: a failure an outage gives everyone, not specific.
func unexpectedWrapped(err error) bool { // want unexpectedWrapped:"identifies$"
	return errs.Has(io.ErrUnexpectedEOF, err)
}

// conflictError carries whether the server refused the write as a
// conflict.
type conflictError struct{ conflict bool }

func (e conflictError) Error() string { return "update failed" }

// asserted: an assertion of the error's type, checked with its ok,
// guards the return of a field of the asserted value.
func asserted(err error) bool { // want asserted:"identifies$"
	e, ok := err.(conflictError)
	if !ok {
		return false
	}
	return e.conflict
}

// assertedIn: the same assertion in the if's init.
func assertedIn(err error) bool { // want assertedIn:"identifies$"
	if e, ok := err.(conflictError); ok {
		return e.conflict
	}
	return false
}

// unchecked asserts without looking at ok: the zero value when the type
// differs; the assertion identifies nothing. No fact.
func unchecked(err error, force bool) bool {
	e, _ := err.(conflictError)
	return e.conflict || force
}
