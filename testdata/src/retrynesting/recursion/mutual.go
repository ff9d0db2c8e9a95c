package recursion

import (
	"context"
	"errors"
	"strings"

	"github.com/cenkalti/backoff/v4"
)

type box struct {
	id    string
	image string
}

var errNoBox = errors.New("no box")

func policy(ctx context.Context) backoff.BackOff {
	return backoff.WithContext(backoff.NewExponentialBackOff(), ctx)
}

// findBox retries a lookup; for a box that is not a sidecar the lookup
// asks spawn for one. spawn retries starting a sidecar, and a sidecar's
// start looks it up again through findBox. The two retries reach each
// other: a recursion that the data (a sidecar's image) breaks on one
// side, so which one nests in the other is not known. Neither is
// reported.
func findBox(ctx context.Context, b box) (string, error) {
	return backoff.RetryWithData(func() (string, error) {
		return locate(ctx, b)
	}, policy(ctx))
}

func locate(ctx context.Context, b box) (string, error) {
	if strings.HasSuffix(b.image, "-sidecar") {
		return b.id, call(ctx)
	}
	return spawn(ctx, b.id)
}

func spawn(ctx context.Context, id string) (string, error) {
	return backoff.RetryWithData(func() (string, error) {
		got, err := findBox(ctx, box{id: id + "-s", image: "proxy-sidecar"})
		if errors.Is(err, errNoBox) {
			return id + "-s", nil
		}
		return got, err
	}, policy(ctx))
}

// The near miss: fetchBox's retry reaches lookupBox's, and nothing
// lookupBox reaches comes back to it: a retry nested in another.
func lookupBox(ctx context.Context, b box) (string, error) {
	return backoff.RetryWithData(func() (string, error) {
		return b.id, call(ctx)
	}, policy(ctx))
}

func fetchBox(ctx context.Context, b box) (string, error) {
	return backoff.RetryWithData(func() (string, error) { // want `nested retry: backoff.RetryWithData makes an unknown number of attempts, each reaching lookupBox, which retries`
		return lookupBox(ctx, b)
	}, policy(ctx))
}
