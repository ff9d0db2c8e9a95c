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

// A suite's helper without a testing parameter, called only by test code
// (the suite's test functions, another test-only helper): test code too.
func publishAll() error {
	var err error
	for i := 0; i < 3; i++ {
		if err = inner(); err == nil {
			return nil
		}
	}
	return err
}

func publishTwice() error {
	if err := publishAll(); err != nil {
		return err
	}
	return publishAll()
}

// RunSuite is what implementations run from their tests.
func RunSuite(t *testing.T) {
	if err := publishTwice(); err != nil {
		t.Fatal(err)
	}
}

// A helper that production code calls too is production code, whoever
// else calls it.
func sendAll() error {
	var err error
	for i := 0; i < 3; i++ { // want `nested retry: retry loop makes 3 attempts`
		if err = inner(); err == nil {
			return nil
		}
	}
	return err
}

func RunSendSuite(t *testing.T) {
	if err := sendAll(); err != nil {
		t.Fatal(err)
	}
}

func Serve() error { return sendAll() }

// Exported: callers in other packages are not known.
func PublishAll() error {
	var err error
	for i := 0; i < 3; i++ { // want `nested retry: retry loop makes 3 attempts`
		if err = inner(); err == nil {
			return nil
		}
	}
	return err
}

func RunExportedSuite(t *testing.T) {
	if err := PublishAll(); err != nil {
		t.Fatal(err)
	}
}

// Kept in a variable at package level: its users are not known.
func retryKept() error {
	var err error
	for i := 0; i < 3; i++ { // want `nested retry: retry loop makes 3 attempts`
		if err = inner(); err == nil {
			return nil
		}
	}
	return err
}

var kept = retryKept

func RunKeptSuite(t *testing.T) {
	if err := retryKept(); err != nil {
		t.Fatal(err)
	}
}

// Only itself calls it: a recursive call is no use, and a function
// nothing else uses is no test code.
func drainAll(batches int) error {
	var err error
	for i := 0; i < 3; i++ { // want `nested retry: retry loop makes 3 attempts`
		if err = inner(); err == nil {
			break
		}
	}
	if batches > 1 {
		return drainAll(batches - 1)
	}
	return err
}

// The near miss: itself and a test function call it.
func drainSuite(batches int) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = inner(); err == nil {
			break
		}
	}
	if batches > 1 {
		return drainSuite(batches - 1)
	}
	return err
}

func RunDrainSuite(t *testing.T) {
	if err := drainSuite(2); err != nil {
		t.Fatal(err)
	}
}

// A fake that keeps the test it serves: its methods run in that test.
type fakeServer struct {
	t     *testing.T
	ready bool
}

func (s *fakeServer) waitReady() error {
	var err error
	for i := 0; i < 3; i++ {
		if err = inner(); err == nil {
			return nil
		}
	}
	s.t.Log(err)
	return err
}

// A mock that keeps the test's reporter interface: test code too.
type mockStore struct{ r Reporter }

func (m mockStore) flush() error {
	var err error
	for i := 0; i < 3; i++ {
		if err = inner(); err == nil {
			return nil
		}
	}
	return err
}

// A type that keeps only a logger is production code.
type worker struct{ log Logger }

func (w *worker) flush() error {
	var err error
	for i := 0; i < 3; i++ { // want `nested retry: retry loop makes 3 attempts`
		if err = inner(); err == nil {
			return nil
		}
	}
	return err
}
