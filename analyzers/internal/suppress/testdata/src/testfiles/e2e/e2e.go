// Package e2e is an end-to-end harness: its code runs in tests, and is
// test code by its path.
package e2e

import "errors"

func call() error { return errors.New("down") }

func inner() error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(); err == nil {
			return nil
		}
	}
	return err
}

// WaitReady polls the system under test.
func WaitReady() error {
	var err error
	for i := 0; i < 3; i++ {
		if err = inner(); err == nil {
			return nil
		}
	}
	return err
}
