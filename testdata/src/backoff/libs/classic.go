package libs

import (
	"time"

	backoffv1 "gopkg.in/cenkalti/backoff.v1"
)

// The first major of cenkalti/backoff: a constant BackOff has no random
// part, whichever major makes it.
func classicConstant(op func() error) error {
	return backoffv1.Retry(op, backoffv1.WithMaxTries(backoffv1.NewConstantBackOff(time.Second), 3)) // want `backoff.Retry waits without jitter \(backoffv1.NewConstantBackOff\)`
}

// Near miss: its exponential BackOff draws RandomizationFactor 0.5 by
// default, and WithMaxTries bounds it.
func classicExponential(op func() error) error {
	return backoffv1.Retry(op, backoffv1.WithMaxTries(backoffv1.NewExponentialBackOff(), 3))
}
