package breaker

import (
	"math"
	"time"
)

// Clock tells the time. Tests inject a fake one; nil means the system clock.
type Clock interface {
	Now() time.Time
}

// Config configures a Breaker. The zero value of every field selects the
// documented default, so the zero Config is a valid configuration:
// a count window of the last 100 calls, judged from 20 calls on, opening at a
// failure rate of 50%, waiting 5s (doubling up to 1m) before 10 trial calls of
// which 8 must succeed.
//
// New rejects a negative count or duration, a rate outside (0, 100], and
// combinations that could never work (MinimumCalls above WindowSize,
// HalfOpenSuccesses above HalfOpenTrials, MaxOpenWait below OpenWait) with a
// *ConfigError.
type Config struct {
	// Name names the breaker in transitions and in the history.
	Name string

	// WindowSize is the number of most recent calls whose outcomes are judged,
	// when the window is count-based (WindowDuration is zero). Zero means 100.
	// At most 1<<20.
	WindowSize int

	// WindowDuration, if non-zero, makes the window time-based: the outcomes of
	// the calls that finished within the last WindowDuration are judged. The
	// window moves in steps of WindowDuration/WindowBuckets. Zero means a
	// count-based window of WindowSize calls.
	WindowDuration time.Duration

	// WindowBuckets is the number of buckets a time-based window is split into;
	// the oldest bucket is dropped as a whole when its time is up. Zero means 10.
	// Each bucket must span at least a millisecond. Unused for a count window.
	WindowBuckets int

	// MinimumCalls is how many outcomes the window must hold before its rates
	// are judged. Zero means 20, or WindowSize if that is smaller: with the
	// default 50% threshold it takes at least 10 failures to open, which a
	// healthy dependency with a few percent of errors practically never
	// produces by chance, while a dependency that has gone down opens within
	// its first 20 calls. For a count window it must not exceed WindowSize.
	MinimumCalls int

	// FailureRateThreshold is the failure rate, in percent, at or above which
	// the circuit opens. In (0, 100]; zero means 50.
	FailureRateThreshold float64

	// SlowCallDuration is the latency above which a call counts as slow, whether
	// it succeeded or failed. Zero turns slow-call judging off (and spares the
	// two clock readings per call it costs).
	SlowCallDuration time.Duration

	// SlowCallRateThreshold is the slow-call rate, in percent, at or above which
	// the circuit opens. In (0, 100]; zero means 50. Unused when
	// SlowCallDuration is zero.
	SlowCallRateThreshold float64

	// OpenWait is how long the circuit stays open the first time. Zero means 5s.
	OpenWait time.Duration

	// MaxOpenWait caps the open wait, which doubles every time the circuit
	// reopens without having been closed for OpenWaitResetAfter in between.
	// Zero means 1m, or OpenWait if that is longer.
	MaxOpenWait time.Duration

	// OpenWaitJitter is the fraction of the open wait that is randomly taken
	// off it, so that instances that opened together do not probe together:
	// the wait is uniform in [(1-OpenWaitJitter)·w, w]. In (0, 1]; zero means
	// 0.2.
	OpenWaitJitter float64

	// OpenWaitResetAfter is how long the circuit must stay closed for the next
	// open wait to start again from OpenWait. Zero means 1m.
	OpenWaitResetAfter time.Duration

	// HalfOpenTrials is the number of trial calls let through in a round of
	// the half-open state, and the most trials that run at once, counting
	// those of earlier rounds still running; further calls get
	// ErrTooManyTrials. Zero
	// means 10: one trial would let a single lucky (or unlucky) call decide,
	// and the circuit would flap.
	HalfOpenTrials int

	// HalfOpenSuccesses is how many of the trials must succeed within
	// HalfOpenMaxLatency for the circuit to close; once that is out of reach
	// it reopens. In [1, HalfOpenTrials]; zero means 80% of HalfOpenTrials,
	// rounded up (8 of 10): stricter than the opening threshold, so that a
	// dependency on the edge does not close the circuit only to open it again.
	HalfOpenSuccesses int

	// HalfOpenMaxLatency is the latency a trial may take and still count as a
	// success. Zero means SlowCallDuration; when both are zero the latency of
	// trials is not judged.
	HalfOpenMaxLatency time.Duration

	// HalfOpenTimeout bounds how long the half-open state waits for its
	// trials: once all trial places are taken and the state is older than
	// this, the next call reopens the circuit (trials that hang must not keep
	// it half-open forever). Zero means 1m, or twice HalfOpenMaxLatency if
	// that is longer. It must not be below HalfOpenMaxLatency.
	HalfOpenTimeout time.Duration

	// Classify says how a call that returned an error counts. A nil error is
	// always a success. Nil means DefaultClassify.
	Classify func(err error) Outcome

	// OnStateChange, if not nil, is called after every state change, in order,
	// never concurrently with itself, from a goroutine that took part in a
	// state change (no goroutine is started). It may call the breaker.
	OnStateChange func(Transition)

	// HistorySize is how many of the latest transitions History keeps. Zero
	// means 32.
	HistorySize int

	// Clock is the time source. Nil means the system clock.
	Clock Clock

	// Rand returns pseudo-random numbers in [0, 1) for the jitter. Nil means
	// math/rand/v2.Float64. It is called with the state lock held.
	Rand func() float64
}

// Defaults, see Config.
const (
	DefaultWindowSize           = 100
	DefaultWindowBuckets        = 10
	DefaultMinimumCalls         = 20
	DefaultFailureRateThreshold = 50.0
	DefaultSlowCallRate         = 50.0
	DefaultOpenWait             = 5 * time.Second
	DefaultMaxOpenWait          = time.Minute
	DefaultOpenWaitJitter       = 0.2
	DefaultOpenWaitResetAfter   = time.Minute
	DefaultHalfOpenTrials       = 10
	DefaultHalfOpenTimeout      = time.Minute
	DefaultHistorySize          = 32

	maxWindowSize = 1 << 20
)

// settings is a validated Config with every default filled in.
type settings struct {
	Config
	halfOpenMaxLatency int64 // ns, 0: unbounded
	halfOpenTimeout    int64
	slowCall           int64 // ns, 0: off
	bucketWidth        int64 // ns, 0: count window
}

func positiveRate(field string, v float64, def float64) (float64, error) {
	if v == 0 {
		return def, nil
	}
	if math.IsNaN(v) || v < 0 || v > 100 {
		return 0, &ConfigError{Field: field, Value: v, Reason: "must be in (0, 100]"}
	}
	return v, nil
}

func nonNegative(field string, v int, def int) (int, error) {
	if v < 0 {
		return 0, &ConfigError{Field: field, Value: v, Reason: "must not be negative"}
	}
	if v == 0 {
		return def, nil
	}
	return v, nil
}

func nonNegativeDuration(field string, v, def time.Duration) (time.Duration, error) {
	if v < 0 {
		return 0, &ConfigError{Field: field, Value: v, Reason: "must not be negative"}
	}
	if v == 0 {
		return def, nil
	}
	return v, nil
}

func (c Config) settings() (*settings, error) {
	var err error
	s := &settings{Config: c}
	if s.WindowSize, err = nonNegative("WindowSize", c.WindowSize, DefaultWindowSize); err != nil {
		return nil, err
	}
	if s.WindowSize > maxWindowSize {
		return nil, &ConfigError{Field: "WindowSize", Value: c.WindowSize, Reason: "must be at most 1048576"}
	}
	if s.WindowDuration, err = nonNegativeDuration("WindowDuration", c.WindowDuration, 0); err != nil {
		return nil, err
	}
	if s.WindowBuckets, err = nonNegative("WindowBuckets", c.WindowBuckets, DefaultWindowBuckets); err != nil {
		return nil, err
	}
	if s.WindowDuration > 0 {
		s.bucketWidth = int64(s.WindowDuration) / int64(s.WindowBuckets)
		if s.bucketWidth < int64(time.Millisecond) {
			return nil, &ConfigError{Field: "WindowBuckets", Value: c.WindowBuckets,
				Reason: "each bucket of WindowDuration " + s.WindowDuration.String() + " must span at least 1ms"}
		}
	}
	defMin := DefaultMinimumCalls
	if s.WindowDuration == 0 && s.WindowSize < defMin {
		defMin = s.WindowSize
	}
	if s.MinimumCalls, err = nonNegative("MinimumCalls", c.MinimumCalls, defMin); err != nil {
		return nil, err
	}
	if s.WindowDuration == 0 && s.MinimumCalls > s.WindowSize {
		return nil, &ConfigError{Field: "MinimumCalls", Value: c.MinimumCalls, Reason: "must not exceed WindowSize (the circuit could never open)"}
	}
	if s.FailureRateThreshold, err = positiveRate("FailureRateThreshold", c.FailureRateThreshold, DefaultFailureRateThreshold); err != nil {
		return nil, err
	}
	if s.SlowCallRateThreshold, err = positiveRate("SlowCallRateThreshold", c.SlowCallRateThreshold, DefaultSlowCallRate); err != nil {
		return nil, err
	}
	if s.SlowCallDuration, err = nonNegativeDuration("SlowCallDuration", c.SlowCallDuration, 0); err != nil {
		return nil, err
	}
	s.slowCall = int64(s.SlowCallDuration)
	if s.OpenWait, err = nonNegativeDuration("OpenWait", c.OpenWait, DefaultOpenWait); err != nil {
		return nil, err
	}
	defMax := max(DefaultMaxOpenWait, s.OpenWait)
	if s.MaxOpenWait, err = nonNegativeDuration("MaxOpenWait", c.MaxOpenWait, defMax); err != nil {
		return nil, err
	}
	if s.MaxOpenWait < s.OpenWait {
		return nil, &ConfigError{Field: "MaxOpenWait", Value: c.MaxOpenWait, Reason: "must not be below OpenWait " + s.OpenWait.String()}
	}
	switch j := c.OpenWaitJitter; {
	case j == 0:
		s.OpenWaitJitter = DefaultOpenWaitJitter
	case math.IsNaN(j) || j < 0 || j > 1:
		return nil, &ConfigError{Field: "OpenWaitJitter", Value: j, Reason: "must be in (0, 1]"}
	}
	if s.OpenWaitResetAfter, err = nonNegativeDuration("OpenWaitResetAfter", c.OpenWaitResetAfter, DefaultOpenWaitResetAfter); err != nil {
		return nil, err
	}
	if s.HalfOpenTrials, err = nonNegative("HalfOpenTrials", c.HalfOpenTrials, DefaultHalfOpenTrials); err != nil {
		return nil, err
	}
	if s.HalfOpenSuccesses, err = nonNegative("HalfOpenSuccesses", c.HalfOpenSuccesses, (s.HalfOpenTrials*8+9)/10); err != nil {
		return nil, err
	}
	if s.HalfOpenSuccesses > s.HalfOpenTrials {
		return nil, &ConfigError{Field: "HalfOpenSuccesses", Value: c.HalfOpenSuccesses, Reason: "must not exceed HalfOpenTrials"}
	}
	if s.HalfOpenMaxLatency, err = nonNegativeDuration("HalfOpenMaxLatency", c.HalfOpenMaxLatency, s.SlowCallDuration); err != nil {
		return nil, err
	}
	s.halfOpenMaxLatency = int64(s.HalfOpenMaxLatency)
	defTimeout := max(DefaultHalfOpenTimeout, 2*s.HalfOpenMaxLatency)
	if s.HalfOpenTimeout, err = nonNegativeDuration("HalfOpenTimeout", c.HalfOpenTimeout, defTimeout); err != nil {
		return nil, err
	}
	if s.HalfOpenTimeout < s.HalfOpenMaxLatency {
		return nil, &ConfigError{Field: "HalfOpenTimeout", Value: c.HalfOpenTimeout, Reason: "must not be below HalfOpenMaxLatency " + s.HalfOpenMaxLatency.String()}
	}
	s.halfOpenTimeout = int64(s.HalfOpenTimeout)
	if s.HistorySize, err = nonNegative("HistorySize", c.HistorySize, DefaultHistorySize); err != nil {
		return nil, err
	}
	if s.Classify == nil {
		s.Classify = DefaultClassify
	}
	return s, nil
}
