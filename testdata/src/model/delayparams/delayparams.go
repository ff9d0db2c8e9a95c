// Package delayparams: retries that wait the delay their caller gives
// export DelayParamFact with the parameter's index, and so does a
// function that passes its own parameter on, unchanged. A delay that
// is changed before the wait, or computed from the parameter, is not
// the caller's value as given: no fact; except the parameter grown with
// the attempts by a factor of no random part (base << i), whose fact
// says so.
package delayparams

import (
	"math"
	"math/rand/v2"
	"time"
)

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

// Grown grows the caller's delay in place, up to the caller's cap: the
// caller's delay grown with the attempts.
func Grown(d, max time.Duration, f func() error) error { // want Grown:`retries\(3\)` Grown:`retryhelper\(op 2\)` Grown:`waitsparam\(0 grown\)`
	var err error
	for i := 0; i < 3; i++ {
		if err = f(); err == nil {
			return nil
		}
		time.Sleep(d)
		if d = d * 3 / 2; d > max {
			d = max
		}
	}
	return err
}

// GrownCapped caps it at a constant: once there, the retry waits a delay
// of its own, judged in the retry. No fact.
func GrownCapped(d time.Duration, f func() error) error { // want GrownCapped:`retries\(3\)` GrownCapped:`retryhelper\(op 1\)`
	var err error
	for i := 0; i < 3; i++ {
		if err = f(); err == nil {
			return nil
		}
		time.Sleep(d)
		if d *= 2; d > time.Minute {
			d = time.Minute
		}
	}
	return err
}

// GrownFloat grows it by a float factor through conversions.
func GrownFloat(d time.Duration, f func() error) error { // want GrownFloat:`retries\(3\)` GrownFloat:`retryhelper\(op 1\)` GrownFloat:`waitsparam\(0 grown\)`
	var err error
	for i := 0; i < 3; i++ {
		if err = f(); err == nil {
			return nil
		}
		time.Sleep(d)
		d = time.Duration(float64(d) * 1.5)
	}
	return err
}

// Shrunk halves it: it does not grow. No fact.
func Shrunk(d time.Duration, f func() error) error { // want Shrunk:`retries\(3\)` Shrunk:`retryhelper\(op 1\)`
	var err error
	for i := 0; i < 3; i++ {
		if err = f(); err == nil {
			return nil
		}
		time.Sleep(d)
		d = time.Duration(float64(d) * 0.5)
	}
	return err
}

// GrownSpread adds a random part as it grows the delay: no fact.
func GrownSpread(d time.Duration, f func() error) error { // want GrownSpread:`retries\(3\)` GrownSpread:`retryhelper\(op 1\)`
	var err error
	for i := 0; i < 3; i++ {
		if err = f(); err == nil {
			return nil
		}
		time.Sleep(d)
		d = d*2 + time.Duration(rand.Int64N(int64(d)))
	}
	return err
}

// GrownBy grows it by a factor it is also given: no fact (the factor
// may be anything, and the caller's delay is then not the whole story).
func GrownBy(d time.Duration, factor time.Duration, f func() error) error { // want GrownBy:`retries\(3\)` GrownBy:`retryhelper\(op 2\)`
	var err error
	for i := 0; i < 3; i++ {
		if err = f(); err == nil {
			return nil
		}
		time.Sleep(d)
		d *= factor
	}
	return err
}

func Shifted(attempts int, base time.Duration, f func() error) error { // want Shifted:`retryhelper\(op 2\)` Shifted:`waitsparam\(1 grown\)` Shifted:`retries\(\?\)`
	var err error
	for i := 0; i < attempts; i++ {
		if err = f(); err == nil {
			return nil
		}
		time.Sleep(base << uint(i))
	}
	return err
}

func Powered(base time.Duration, f func() error) error { // want Powered:`retries\(4\)` Powered:`retryhelper\(op 1\)` Powered:`waitsparam\(0 grown\)`
	var err error
	for n := range 4 {
		if err = f(); err == nil {
			return nil
		}
		time.Sleep(time.Duration(float64(base) * math.Pow(2, float64(n))))
	}
	return err
}

// The growth has a random part: what the caller gives is not the delay's
// whole story. No fact.
func Spread(base time.Duration, f func() error) error { // want Spread:`retries\(3\)` Spread:`retryhelper\(op 1\)`
	var err error
	for i := 0; i < 3; i++ {
		if err = f(); err == nil {
			return nil
		}
		time.Sleep(base * time.Duration(1+rand.IntN(1<<i)))
	}
	return err
}

type scaler struct{ factor time.Duration }

// The factor is a field, set who knows how: no fact.
func (s scaler) Scaled(base time.Duration, f func() error) error { // want Scaled:`retries\(3\)` Scaled:`retryhelper\(op 1\)`
	var err error
	for i := 0; i < 3; i++ {
		if err = f(); err == nil {
			return nil
		}
		time.Sleep(base * s.factor)
	}
	return err
}
