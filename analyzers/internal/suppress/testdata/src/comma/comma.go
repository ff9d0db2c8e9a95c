package comma

import (
	"errors"
	"time"
)

func call() error { return errors.New("down") }

// Without the directives, retrynesting reports the outer loop and backoff
// both sleeps (see package silenced and the backoff fixtures).
func inner() error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(); err == nil {
			return nil
		}
		time.Sleep(time.Second) //resilint:ignore backoff,retrynesting the server paces us with Retry-After
	}
	return err
}

func outer() error {
	var err error
	//resilint:ignore retrynesting,backoff one directive for two checks on the lines it covers
	for i := 0; i < 3; i++ {
		if err = inner(); err == nil {
			return nil
		}
		//resilint:ignore backoff,retrynesting the line below
		time.Sleep(time.Second)
	}
	return err
}
