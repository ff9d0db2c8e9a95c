package breaker

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/resilint/resilint/runtime/internal/assert"
	"github.com/resilint/resilint/runtime/internal/require"
)

func TestConfigValidation(t *testing.T) {
	for _, tc := range []struct {
		name  string
		c     Config
		field string
		msg   string
	}{
		{"negative window", Config{WindowSize: -1}, "WindowSize", "breaker: invalid Config.WindowSize -1: must not be negative"},
		{"huge window", Config{WindowSize: 1<<20 + 1}, "WindowSize", "must be at most 1048576"},
		{"negative duration window", Config{WindowDuration: -time.Second}, "WindowDuration", "must not be negative"},
		{"negative buckets", Config{WindowDuration: time.Second, WindowBuckets: -2}, "WindowBuckets", "must not be negative"},
		{"buckets too narrow", Config{WindowDuration: time.Second, WindowBuckets: 2000}, "WindowBuckets", "must span at least 1ms"},
		{"negative minimum", Config{MinimumCalls: -5}, "MinimumCalls", "must not be negative"},
		{"minimum above window", Config{WindowSize: 10, MinimumCalls: 11}, "MinimumCalls", "must not exceed WindowSize"},
		{"rate above 100", Config{FailureRateThreshold: 150}, "FailureRateThreshold", "breaker: invalid Config.FailureRateThreshold 150: must be in (0, 100]"},
		{"negative rate", Config{FailureRateThreshold: -1}, "FailureRateThreshold", "must be in (0, 100]"},
		{"NaN rate", Config{FailureRateThreshold: math.NaN()}, "FailureRateThreshold", "must be in (0, 100]"},
		{"slow rate above 100", Config{SlowCallRateThreshold: 100.5}, "SlowCallRateThreshold", "must be in (0, 100]"},
		{"negative slow duration", Config{SlowCallDuration: -1}, "SlowCallDuration", "must not be negative"},
		{"negative open wait", Config{OpenWait: -time.Second}, "OpenWait", "must not be negative"},
		{"negative max open wait", Config{MaxOpenWait: -time.Second}, "MaxOpenWait", "must not be negative"},
		{"max below open wait", Config{OpenWait: time.Minute, MaxOpenWait: time.Second}, "MaxOpenWait", "must not be below OpenWait 1m0s"},
		{"jitter above 1", Config{OpenWaitJitter: 1.5}, "OpenWaitJitter", "must be in (0, 1]"},
		{"negative jitter", Config{OpenWaitJitter: -0.1}, "OpenWaitJitter", "must be in (0, 1]"},
		{"negative reset", Config{OpenWaitResetAfter: -1}, "OpenWaitResetAfter", "must not be negative"},
		{"negative trials", Config{HalfOpenTrials: -1}, "HalfOpenTrials", "must not be negative"},
		{"negative successes", Config{HalfOpenSuccesses: -1}, "HalfOpenSuccesses", "must not be negative"},
		{"successes above trials", Config{HalfOpenTrials: 3, HalfOpenSuccesses: 4}, "HalfOpenSuccesses", "must not exceed HalfOpenTrials"},
		{"successes above default trials", Config{HalfOpenSuccesses: 11}, "HalfOpenSuccesses", "must not exceed HalfOpenTrials"},
		{"negative max latency", Config{HalfOpenMaxLatency: -1}, "HalfOpenMaxLatency", "must not be negative"},
		{"negative half-open timeout", Config{HalfOpenTimeout: -1}, "HalfOpenTimeout", "must not be negative"},
		{"timeout below latency", Config{HalfOpenMaxLatency: time.Second, HalfOpenTimeout: time.Millisecond}, "HalfOpenTimeout", "must not be below HalfOpenMaxLatency 1s"},
		{"negative history", Config{HistorySize: -1}, "HistorySize", "must not be negative"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := New(tc.c)
			require.Error(t, err)
			assert.Nil(t, b)
			var ce *ConfigError
			require.True(t, errors.As(err, &ce))
			assert.Equal(t, tc.field, ce.Field)
			assert.Contains(t, err.Error(), tc.msg)
		})
	}
}

func TestConfigDefaults(t *testing.T) {
	s, err := Config{}.settings()
	require.NoError(t, err)
	assert.Equal(t, 100, s.WindowSize)
	assert.Equal(t, 20, s.MinimumCalls)
	assert.Equal(t, 50.0, s.FailureRateThreshold)
	assert.Equal(t, 50.0, s.SlowCallRateThreshold)
	assert.Zero(t, s.SlowCallDuration)
	assert.Equal(t, 5*time.Second, s.OpenWait)
	assert.Equal(t, time.Minute, s.MaxOpenWait)
	assert.Equal(t, 0.2, s.OpenWaitJitter)
	assert.Equal(t, time.Minute, s.OpenWaitResetAfter)
	assert.Equal(t, 10, s.HalfOpenTrials)
	assert.Equal(t, 8, s.HalfOpenSuccesses)
	assert.Zero(t, s.HalfOpenMaxLatency)
	assert.Equal(t, time.Minute, s.HalfOpenTimeout)
	assert.Equal(t, 32, s.HistorySize)

	s, err = Config{WindowSize: 5, HalfOpenTrials: 3, SlowCallDuration: 40 * time.Second, OpenWait: 2 * time.Minute}.settings()
	require.NoError(t, err)
	assert.Equal(t, 5, s.MinimumCalls, "MinimumCalls follows a small window")
	assert.Equal(t, 3, s.HalfOpenSuccesses, "80% of 3, rounded up")
	assert.Equal(t, 40*time.Second, s.HalfOpenMaxLatency, "follows SlowCallDuration")
	assert.Equal(t, 80*time.Second, s.HalfOpenTimeout, "twice the latency bound")
	assert.Equal(t, 2*time.Minute, s.MaxOpenWait, "at least OpenWait")

	s, err = Config{WindowDuration: time.Minute}.settings()
	require.NoError(t, err)
	assert.Equal(t, 10, s.WindowBuckets)
	assert.Equal(t, int64(6*time.Second), s.bucketWidth)
	assert.Equal(t, 20, s.MinimumCalls)
}
