package ratelimit

import (
	"fmt"
	"math"
	"time"
)

// Clock tells the time. Tests inject a fake one; nil means the system clock.
type Clock interface {
	Now() time.Time
}

// StoreFailure says what a [Limiter] does when its [Store] fails or does not
// answer within [Config.StoreTimeout].
type StoreFailure int

const (
	// StoreFailureOpen decides with a local limiter, private to this
	// process, at [Config.FallbackLimit] per key and window: an outage of the
	// shared store neither takes the service down nor leaves it unlimited.
	// It is the default.
	StoreFailureOpen StoreFailure = iota

	// StoreFailureClosed refuses the request with an error wrapping
	// [ErrStoreUnavailable]; the middleware answers 503 with Retry-After.
	StoreFailureClosed
)

// String returns "open" or "closed".
func (f StoreFailure) String() string {
	switch f {
	case StoreFailureOpen:
		return "open"
	case StoreFailureClosed:
		return "closed"
	}
	return fmt.Sprintf("StoreFailure(%d)", int(f))
}

// Defaults for the zero fields of a [Config].
const (
	DefaultWindow       = time.Minute
	DefaultStoreTimeout = 100 * time.Millisecond
	DefaultMaxKeys      = 1 << 20
	DefaultShards       = 256

	// MaxLimit is the largest Limit: counts are kept in 32 bits.
	MaxLimit = math.MaxInt32
	// MinWindow and MaxWindow bound Window.
	MinWindow = time.Millisecond
	MaxWindow = 7 * 24 * time.Hour
)

// Config configures a [Limiter]. Every field but Limit has a documented
// default for its zero value.
type Config struct {
	// Limit is how many requests one key may make in any span of Window
	// (as weighed by the sliding window counter; see the package comment).
	// Required: in [1, MaxLimit].
	Limit int

	// Window is the span the limit applies to. Windows are aligned on the
	// Unix epoch, so that every instance of a service agrees on them. Zero
	// means DefaultWindow, one minute. In [MinWindow, MaxWindow]; it is
	// used to the microsecond.
	Window time.Duration

	// Store keeps the counts where every instance of the service shares
	// them (runtime/ratelimit/redisstore). Nil means an in-process store
	// only: each instance then limits the requests that reach it.
	Store Store

	// StoreTimeout bounds how long a decision waits for Store. A store that
	// fails or does not answer in time is handled as OnStoreError says; the
	// caller is never held longer, even by a Store that ignores its context.
	// Zero means DefaultStoreTimeout, 100ms. Unused without a Store.
	StoreTimeout time.Duration

	// OnStoreError says what happens when Store fails. The zero value is
	// StoreFailureOpen: fall back to a local limit.
	OnStoreError StoreFailure

	// FallbackLimit is the per-key limit of the local limiter used while
	// failing open. Zero means Limit: with N instances behind a balancer a
	// key may then make up to N×Limit requests per window during an outage;
	// set Limit/N to keep the total. In [1, MaxLimit] when set.
	FallbackLimit int

	// StoreErrorHook, if not nil, is called with every error of Store
	// (including its timeouts), for logs and metrics. It runs in the
	// caller's goroutine and must be quick.
	StoreErrorHook func(error)

	// MaxKeys bounds the number of keys the in-process store tracks (and,
	// separately, the fallback store). When it is full, see [Limiter]. Zero
	// means DefaultMaxKeys, 1<<20. At least Shards.
	MaxKeys int

	// Shards is the number of independently locked parts of the in-process
	// store; callers with keys in different shards never wait for each
	// other. Zero means DefaultShards, 256. A power of two, at most 1<<16.
	Shards int

	// Clock is the time source of Allow. Nil means the system clock.
	Clock Clock
}

// ConfigError is returned by New for a Config field with an invalid value.
type ConfigError struct {
	// Field is the name of the Config field, "Limit" for example.
	Field string
	// Value is the offending value.
	Value any
	// Reason says what a valid value is.
	Reason string
}

func (e *ConfigError) Error() string {
	return fmt.Sprintf("ratelimit: invalid Config.%s %v: %s", e.Field, e.Value, e.Reason)
}

// settings is a validated Config with the defaults filled in.
type settings struct {
	Config
	windowMicros int64
}

func (c Config) settings() (*settings, error) {
	s := &settings{Config: c}
	if c.Limit < 1 || c.Limit > MaxLimit {
		return nil, &ConfigError{"Limit", c.Limit, "must be in [1, 2147483647]"}
	}
	switch {
	case c.Window == 0:
		s.Window = DefaultWindow
	case c.Window < MinWindow || c.Window > MaxWindow:
		return nil, &ConfigError{"Window", c.Window, "must be in [1ms, 168h]"}
	}
	s.windowMicros = s.Window.Microseconds()
	switch {
	case c.StoreTimeout == 0:
		s.StoreTimeout = DefaultStoreTimeout
	case c.StoreTimeout < 0:
		return nil, &ConfigError{"StoreTimeout", c.StoreTimeout, "must not be negative"}
	}
	if c.OnStoreError != StoreFailureOpen && c.OnStoreError != StoreFailureClosed {
		return nil, &ConfigError{"OnStoreError", c.OnStoreError, "must be StoreFailureOpen or StoreFailureClosed"}
	}
	switch {
	case c.FallbackLimit == 0:
		s.FallbackLimit = c.Limit
	case c.FallbackLimit < 0 || c.FallbackLimit > MaxLimit:
		return nil, &ConfigError{"FallbackLimit", c.FallbackLimit, "must be in [1, 2147483647]"}
	}
	switch {
	case c.Shards == 0:
		s.Shards = DefaultShards
	case c.Shards < 0 || c.Shards > 1<<16 || c.Shards&(c.Shards-1) != 0:
		return nil, &ConfigError{"Shards", c.Shards, "must be a power of two in [1, 65536]"}
	}
	switch {
	case c.MaxKeys == 0:
		s.MaxKeys = max(DefaultMaxKeys, s.Shards)
	case c.MaxKeys < s.Shards:
		return nil, &ConfigError{"MaxKeys", c.MaxKeys, fmt.Sprintf("must be at least Shards (%d)", s.Shards)}
	}
	return s, nil
}
