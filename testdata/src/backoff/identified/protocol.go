package identified

import (
	"context"
	"fmt"
	"time"
)

// codeError is a code a remote service answers with.
type codeError struct{ code int }

func (e *codeError) Error() string { return fmt.Sprintf("code %d", e.code) }

// Is matches any error with the same code: the errors package's protocol.
func (e *codeError) Is(err error) bool {
	ce, ok := err.(*codeError)
	return ok && ce.code == e.code
}

var errNoQuorum = &codeError{code: 503}

type provisioner interface {
	Provision(ctx context.Context) error
}

// Provision goes round only on the failure the package's error picks out
// through its Is method: identified, so the loop is no retry of every
// failure for ever, but its fixed second is still judged. Reported for
// the delay only.
func Provision(ctx context.Context, p provisioner) error {
	for {
		err := p.Provision(ctx)
		if err == nil {
			return nil
		}
		if errNoQuorum.Is(err) {
			time.Sleep(time.Second) // want `retry delay has no jitter`
			continue
		}
		return err
	}
}

// ProvisionLike asks an error it was given, not a package's: what it
// matches is not known, so every failure may go round; reported for the
// missing bound too.
func ProvisionLike(ctx context.Context, p provisioner, like *codeError) error {
	for { // want `retry loop has no bound`
		err := p.Provision(ctx)
		if err == nil {
			return nil
		}
		if like.Is(err) {
			time.Sleep(time.Second) // want `retry delay has no jitter`
			continue
		}
		return err
	}
}
