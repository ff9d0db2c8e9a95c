// Package statustests has functions that answer true only for some
// statuses of the response they are given (StatusTestFact), and near
// misses.
package statustests

import (
	"net/http"
	"strings"
)

// needsGrant answers true only on a 401 that asks for a wider grant.
func needsGrant(r *http.Response) bool { // want needsGrant:"status test\\(0: 401\\)"
	return r.StatusCode == http.StatusUnauthorized && strings.Contains(r.Header.Get("WWW-Authenticate"), "insufficient_scope")
}

// overloaded answers true on 429 and the 5xx an outage gives.
func overloaded(name string, r *http.Response) bool { // want overloaded:"status test\\(1: 429 502 503 504\\)"
	if r.StatusCode == http.StatusTooManyRequests {
		return true
	}
	if r.StatusCode < 500 {
		return false
	}
	return r.StatusCode == 502 || r.StatusCode == 503 || r.StatusCode == 504
}

// The near misses: one that may answer true for any status, one that
// does something else first, one given two responses.
func anyStatus(r *http.Response) bool {
	return r.Header.Get("Retry-After") != ""
}

func logged(r *http.Response) bool {
	println(r.StatusCode)
	return r.StatusCode == http.StatusUnauthorized
}

func either(a, b *http.Response) bool {
	return a.StatusCode == 401 || b.StatusCode == 401
}
