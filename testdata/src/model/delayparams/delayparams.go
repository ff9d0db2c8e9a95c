// Package delayparams: retries that wait the delay their caller gives
// export DelayParamFact with the parameter's index, and so does a
// function that passes its own parameter on, unchanged. A delay that
// is changed before the wait, or computed from the parameter, is not
// the caller's value as given: no fact.
package delayparams

import "time"

func Do(attempts int, sleep time.Duration, f func() error) error { // want Do:`retryhelper\(op 2\)` Do:`waitsparam\(1\)` Do:`retries\(\?\)`
	var err error
	for i := 0; i < attempts; i++ {
		if err = f(); err == nil {
			return nil
		}
		time.Sleep(sleep)
	}
	return err
}

func Pass(f func() error, d time.Duration) error { // want Pass:`retries\(3\)` Pass:`waitsparam\(1\)` Pass:`retryhelper\(op 0\)`
	return Do(3, d, f)
}

func Doubled(f func() error, d time.Duration) error { // want Doubled:`retries\(3\)` Doubled:`retryhelper\(op 0\)`
	return Do(3, 2*d, f)
}

func Grown(d time.Duration, f func() error) error { // want Grown:`retries\(3\)` Grown:`retryhelper\(op 1\)`
	var err error
	for i := 0; i < 3; i++ {
		if err = f(); err == nil {
			return nil
		}
		time.Sleep(d)
		d *= 2
	}
	return err
}
