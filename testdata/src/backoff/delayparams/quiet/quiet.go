// Package quiet calls a retry that waits the delay it is given, with
// fixed delays that are never a storm: a call that makes one attempt
// (the delay is never waited) and one whose operation stays on this host.
package quiet

import (
	"os"
	"time"

	"backoff/delayparams/retrier"
)

func fetch() error { return nil }

// Once makes one attempt: not reported.
func Once() error {
	return retrier.Do(1, time.Second, fetch)
}

// Rename retries a rename of this host's files: not reported.
func Rename(tmp, dst string) error {
	return retrier.Try(10, 50*time.Millisecond, func() error { return os.Rename(tmp, dst) })
}
