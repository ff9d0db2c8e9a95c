package ifacewaits

import (
	"net/http"
	"time"
)

// pauser waits; tests give a fake so that they need not sleep. No type of
// the package implements it: the caller gives one.
type pauser interface {
	Pause(d time.Duration)
}

// stepper counts; it is given no duration.
type stepper interface {
	Step(n int)
}

// AttemptPaused pauses through the interface between attempts, given a
// duration: a sleeper the model cannot see, which may wait. Not reported
// as trying again at once.
func AttemptPaused(p pauser, hc *http.Client, url string) error {
	var err error
	for i := range 3 {
		if i > 0 {
			p.Pause(time.Duration(i) * time.Second)
		}
		var resp *http.Response
		if resp, err = hc.Get(url); err == nil {
			resp.Body.Close()
			return nil
		}
	}
	return err
}

// AttemptStepped calls an interface method given no duration: no wait,
// reported.
func AttemptStepped(s stepper, hc *http.Client, url string) error {
	var err error
	for i := range 3 { // want `retry loop tries again at once`
		s.Step(i)
		var resp *http.Response
		if resp, err = hc.Get(url); err == nil {
			resp.Body.Close()
			return nil
		}
	}
	return err
}
