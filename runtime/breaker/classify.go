package breaker

import (
	"context"
	"errors"
)

// httpStatuser is implemented by errors that carry an HTTP status code.
type httpStatuser interface{ HTTPStatus() int }

// DefaultClassify is the classifier used when Config.Classify is nil:
//
//   - nil: OutcomeSuccess.
//   - context.Canceled anywhere in the chain: OutcomeIgnored; the caller gave
//     up, which says nothing about the dependency.
//   - an error in the chain with a method HTTPStatus() int: 408 Request Timeout,
//     429 Too Many Requests and 5xx are OutcomeFailure (the dependency timed out,
//     is shedding load or broke); any other status below 500 is OutcomeSuccess
//     (the dependency answered; the request was at fault).
//   - anything else, including context.DeadlineExceeded, net.Error timeouts and
//     connection errors: OutcomeFailure.
//
// Independently of the classifier, Do and Execute ignore a call that returned
// an error after its context was cancelled.
func DefaultClassify(err error) Outcome {
	if err == nil {
		return OutcomeSuccess
	}
	if errors.Is(err, context.Canceled) {
		return OutcomeIgnored
	}
	var h httpStatuser
	if errors.As(err, &h) {
		switch code := h.HTTPStatus(); {
		case code == 408 || code == 429 || code >= 500:
			return OutcomeFailure
		case code >= 100:
			return OutcomeSuccess
		}
	}
	return OutcomeFailure
}
