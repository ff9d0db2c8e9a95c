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

// Reporter is how a mock reports to the test that uses it: *testing.T
// satisfies it, and it can end the test.
type Reporter interface {
	Errorf(format string, args ...interface{})
	Fatal(args ...interface{})
}

// A mock's helper that takes the test's reporter is test code too.
func waitForPort(t Reporter) {
	var err error
	for i := 0; i < 3; i++ {
		if err = inner(); err == nil {
			return
		}
	}
	t.Fatal(err)
}

// Logger has methods *testing.T has, but cannot end a test: production
// code.
type Logger interface {
	Logf(format string, args ...any)
}

func withLogger(l Logger) error {
	var err error
	for i := 0; i < 3; i++ { // want `nested retry: retry loop makes 3 attempts`
		if err = inner(); err == nil {
			return nil
		}
		l.Logf("retrying: %v", err)
	}
	return err
}

// Fataler can stop something, but a method *testing.T lacks makes it no
// test reporter.
type Fataler interface {
	Fatal(args ...any)
	Printf(format string, args ...any)
}

func withFataler(l Fataler) error {
	var err error
	for i := 0; i < 3; i++ { // want `nested retry: retry loop makes 3 attempts`
		if err = inner(); err == nil {
			return nil
		}
		l.Printf("retrying: %v", err)
	}
	return err
}
