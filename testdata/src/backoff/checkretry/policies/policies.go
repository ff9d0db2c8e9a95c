// Package policies holds retry predicates for go-retryablehttp clients of
// another package: whether one never retries is known there by a fact.
package policies

import (
	"context"
	"net/http"
)

// Never stops after the first attempt, whatever its outcome.
func Never(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if err != nil {
		return false, err
	}
	return false, nil
}

// OnUnavailable retries a 503.
func OnUnavailable(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if resp != nil && resp.StatusCode == http.StatusServiceUnavailable {
		return true, nil
	}
	return false, err
}
