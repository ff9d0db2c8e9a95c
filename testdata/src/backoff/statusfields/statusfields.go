// Package statusfields retries through a transport of another package
// whose errors carry the response's status in a field of a third
// package's type: the field is known to hold a status wherever it is
// read (the transport's StatusFieldsFact).
package statusfields

import (
	"context"
	"errors"
	"net/http"
	"time"

	"backoff/statusfields/apierrs"
	"backoff/statusfields/transport"
)

// AwaitUnlocked goes round while the resource is locked by this
// client's previous request (423): a client error, not reported.
func AwaitUnlocked(ctx context.Context, hc *http.Client, url string) error {
	for i := 0; ; i++ {
		err := transport.Get(ctx, hc, url)
		var ae *apierrs.Error
		if err == nil || i == 4 || !errors.As(err, &ae) || ae.Code != http.StatusLocked {
			return err
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// AwaitGateway goes round on a bad gateway, which every client meets
// when the upstream is down: reported.
func AwaitGateway(ctx context.Context, hc *http.Client, url string) error {
	for i := 0; ; i++ {
		err := transport.Get(ctx, hc, url)
		var ae *apierrs.Error
		if err == nil || i == 4 || !errors.As(err, &ae) || ae.Code != http.StatusBadGateway {
			return err
		}
		time.Sleep(200 * time.Millisecond) // want `retry delay has no jitter`
	}
}
