package bounds

import (
	"errors"
	"math/rand/v2"
	"time"
)

const maxTries = 3

// pause waits a random while and counts the try through the pointer it
// is given: the caller's counter is stepped here.
func pause(tries *int) {
	time.Sleep(rand.N(100 * time.Millisecond))
	*tries++
}

// pauseOnly waits and counts nothing.
func pauseOnly(tries *int) {
	time.Sleep(rand.N(100 * time.Millisecond))
	_ = *tries
}

// The attempt limit holds: the counter it tests is stepped by pause.
func sendStepped(addr string) error {
	tries := 0
	var last error
	for tries < maxTries {
		if last = dialTo(addr); last == nil {
			return nil
		}
		pause(&tries)
	}
	return last
}

// Near miss: the helper reads the counter and never steps it; nothing
// else does: the test never changes, and the loop has no bound.
func sendUnstepped(addr string) error {
	tries := 0
	var last error
	for tries < maxTries { // want `retry loop has no bound`
		if last = dialTo(addr); last == nil {
			return nil
		}
		pauseOnly(&tries)
	}
	return last
}

func dialTo(addr string) error { return errors.New("refused: " + addr) }
