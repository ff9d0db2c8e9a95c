package delayfuncs

import "time"

// session is what a transaction holds its client as: its configuration
// comes through a method of the interface.
type session interface {
	Conf() *hookConf
	Load() error
}

// liveSession, the package's one session, hands out the configuration
// it was made with.
type liveSession struct{ conf *hookConf }

func (s *liveSession) Conf() *hookConf { return s.conf }
func (s *liveSession) Load() error     { return nil }

// traced wraps any session: it hands the calls on to the one it holds.
type traced struct{ session }

type txn struct{ s session }

// pause takes the configured function when one is set, otherwise the
// configured pause, both read through the session's getter.
func (t *txn) pause(left int) time.Duration {
	if t.s.Conf().PauseFn != nil {
		return t.s.Conf().PauseFn(t.s.Conf().Tries-left, t.s.Conf().Tries)
	}
	return t.s.Conf().Pause
}

// commit waits the configured pause of whatever session it holds: every
// session of the package hands out its configuration, so a caller who
// sets no function waits the same fixed pause as every other client.
func (t *txn) commit() error {
	var err error
	for left := t.s.Conf().Tries; left >= 0; left-- {
		if err = t.s.Load(); err == nil {
			return nil
		}
		time.Sleep(t.pause(left)) // want `retry delay has no jitter`
	}
	return err
}

// source makes the configuration anew each time it is asked.
type source interface {
	Settings() *hookConf
	Load() error
}

type tuned struct{ base time.Duration }

func (s *tuned) Settings() *hookConf { return s.derive() }
func (s *tuned) derive() *hookConf   { return &hookConf{Pause: s.base} }
func (s *tuned) Load() error         { return nil }

type job struct{ src source }

func (j *job) pause(left int) time.Duration {
	if j.src.Settings().PauseFn != nil {
		return j.src.Settings().PauseFn(3-left, 3)
	}
	return j.src.Settings().Pause
}

// run: the package's one source computes what it hands out, which the
// model does not follow: not reported.
func (j *job) run() error {
	var err error
	for left := 3; left >= 0; left-- {
		if err = j.src.Load(); err == nil {
			return nil
		}
		time.Sleep(j.pause(left))
	}
	return err
}

// remote has no implementation in the package: what its Settings hand
// out is another package's to say.
type remote interface {
	Settings() *hookConf
	Fetch() error
}

type poller struct{ r remote }

func (p *poller) pause(left int) time.Duration {
	if p.r.Settings().PauseFn != nil {
		return p.r.Settings().PauseFn(3-left, 3)
	}
	return p.r.Settings().Pause
}

// run is not reported: nothing known of the configuration.
func (p *poller) run() error {
	var err error
	for left := 3; left >= 0; left-- {
		if err = p.r.Fetch(); err == nil {
			return nil
		}
		time.Sleep(p.pause(left))
	}
	return err
}
