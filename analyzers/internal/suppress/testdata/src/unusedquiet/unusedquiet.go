package unusedquiet

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

func used() error {
	var err error
	//resilint:ignore retrynesting this one silences the finding below
	for i := 0; i < 3; i++ {
		if err = inner(); err == nil {
			return nil
		}
	}
	return err
}

func stale() error {
	// The code was fixed; the directive stayed behind.
	//resilint:ignore retrynesting inner used to retry
	return inner()
}

// Only the checks run are judged: backoff does not run in this test.
func otherCheck() error {
	//resilint:ignore backoff not judged by retrynesting
	return call()
}
