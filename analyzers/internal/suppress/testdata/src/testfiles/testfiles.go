package testfiles

import (
	"errors"
	"testing"
)

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

func outer() error {
	var err error
	for i := 0; i < 3; i++ { // want `nested retry: retry loop makes 3 attempts`
		if err = inner(); err == nil {
			return nil
		}
	}
	return err
}

// A test helper kept in a non-test file is test code too.
func waitForServer(t testing.TB) {
	var err error
	for i := 0; i < 3; i++ {
		if err = inner(); err == nil {
			return
		}
	}
	t.Fatal(err)
}
