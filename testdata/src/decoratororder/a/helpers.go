package a

import (
	"errors"
	"time"

	"github.com/sony/gobreaker"
)

// permanent names the errors not worth another attempt, the breaker's
// open rejection among them.
func permanent(err error) bool {
	return errors.Is(err, gobreaker.ErrOpenState) || errors.Is(err, gobreaker.ErrTooManyRequests)
}

// The package's own classifier stops the retry on the open error.
func stopsThroughHelper() error {
	var err error
	for i := 0; i < 3; i++ {
		if err = viaBreaker(); err == nil {
			return nil
		}
		if permanent(err) {
			return err
		}
		time.Sleep(time.Second)
	}
	return err
}

// transient names the errors worth another attempt; the open rejection
// is one of them.
func transient(err error) bool {
	return errors.Is(err, gobreaker.ErrOpenState) || errors.Is(err, errBusy)
}

var errBusy = errors.New("busy")

// The near miss: the helper's answer sends the open error round again.
func retriesThroughHelper() error {
	var err error
	for i := 0; i < 3; i++ { // want `retry outside a circuit breaker: retry loop \(3 attempts\)`
		if err = viaBreaker(); err == nil {
			return nil
		}
		if !transient(err) {
			return err
		}
		time.Sleep(time.Second)
	}
	return err
}

type replica struct {
	addr string
	cb   *gobreaker.CircuitBreaker
}

func ask(addr string) (interface{}, error) { return nil, nil }

// One breaker per replica, the loop failing over across them: no attempt
// goes through the same breaker twice.
func queryReplicas(rs []*replica) (v interface{}, err error) {
	for i := 0; i < 3 && i < len(rs); i++ {
		r := rs[i]
		v, err = r.cb.Execute(func() (interface{}, error) { return ask(r.addr) })
		if err == nil {
			return v, nil
		}
	}
	return nil, err
}
