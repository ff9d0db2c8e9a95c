package unused

import (
	"errors"
	"time"
)

func call() error { return errors.New("down") }

func inner() error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(); err == nil {
			return nil
		}
		//resilint:ignore backoff the server paces its clients (silences the fixed delay)
		time.Sleep(time.Second)
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
		// want +1 `resilint:ignore directive silences no retrynesting finding on this line or the next \(remove retrynesting from it\)`
		//resilint:ignore backoff,retrynesting only backoff has a finding here
		time.Sleep(time.Second)
	}
	return err
}

func stale() error {
	// The code was fixed; the directive stayed behind.
	// want +1 `resilint:ignore directive silences no retrynesting finding on this line or the next`
	//resilint:ignore retrynesting inner used to retry
	return inner()
}

// Every check is judged, whichever checks are reported.
func otherCheck() error {
	// want +1 `resilint:ignore directive silences no backoff finding`
	//resilint:ignore backoff nothing waits here
	return call()
}

// A directive that is malformed is reported as such, not as unused.
func malformed() error {
	// want +1 `resilint:ignore directive gives no reason`
	//resilint:ignore backoff
	return call()
}
