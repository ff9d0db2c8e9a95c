// Package cachetest is the test kit of package cache (as httptest is
// net/http's): test code by its path.
package cachetest

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
