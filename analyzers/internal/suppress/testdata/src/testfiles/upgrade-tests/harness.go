// Package upgradetests is a CI harness (its directory upgrade-tests): its
// code runs in CI jobs, and is test code by its path.
package upgradetests

import "errors"

func probe() error { return errors.New("not up") }

func once() error {
	var err error
	for i := 0; i < 3; i++ {
		if err = probe(); err == nil {
			return nil
		}
	}
	return err
}

// WaitServer waits for the server the tests started.
func WaitServer() error {
	var err error
	for i := 0; i < 3; i++ {
		if err = once(); err == nil {
			return nil
		}
	}
	return err
}
