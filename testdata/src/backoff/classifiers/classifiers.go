// Package classifiers: a retry that goes round at once, with no bound of
// its own, only on the failures a function of the package picks out (a
// serialization conflict by its SQL state) is that code's answer to those
// failures; one that goes round on everything but what its classifier
// picks out is still a retry storm.
package classifiers

import (
	"errors"
)

type sqlState interface{ SQLState() string }

func code(err error) string {
	var s sqlState
	if errors.As(err, &s) {
		return s.SQLState()
	}
	return ""
}

func retryable(err error) bool {
	c := code(err)
	return c == "40001" || c == "CR000"
}

func permanent(err error) bool {
	return code(err) == "23505"
}

type tx struct{}

func (tx) exec(q string) error { return nil }

// RunInTx re-runs fn at once on serialization conflicts only: not
// reported.
func RunInTx(t tx, fn func() error) error {
	for {
		err := fn()
		if err == nil {
			if err = t.exec("RELEASE SAVEPOINT s"); err == nil {
				return nil
			}
		}
		if !retryable(err) {
			return err
		}
		if err := t.exec("ROLLBACK TO SAVEPOINT s"); err != nil {
			return err
		}
	}
}

// RunUntilPermanent re-runs fn at once on every failure but a unique
// violation: reported.
func RunUntilPermanent(t tx, fn func() error) error {
	for i := 0; i < 5; i++ { // want `retry loop tries again at once after a failure`
		err := fn()
		if err == nil {
			return nil
		}
		if permanent(err) {
			return err
		}
	}
	return errors.New("gave up")
}
