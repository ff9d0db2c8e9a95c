package callpath_test

import (
	"testing"
	"time"

	"github.com/resilint/resilint/runtime/internal/assert"
	"github.com/resilint/resilint/runtime/internal/require"

	"github.com/resilint/resilint/runtime/callpath"
	"github.com/resilint/resilint/runtime/retry"
)

func TestNewValidates(t *testing.T) {
	tests := []struct {
		name  string
		cfg   callpath.Config
		field string // "" for a valid config
		text  string
	}{
		{name: "zero", cfg: callpath.Config{}},
		{name: "all parts", cfg: callpath.Config{Timeout: time.Second, FallbackReserve: 100 * time.Millisecond, Retry: &retry.Policy{}, AttemptTimeout: 300 * time.Millisecond}},
		{name: "attempts fit exactly", cfg: callpath.Config{Timeout: time.Second, FallbackReserve: 100 * time.Millisecond, Retry: &retry.Policy{MaxAttempts: 3}, AttemptTimeout: 300 * time.Millisecond}},
		{name: "attempt timeout without total", cfg: callpath.Config{Retry: &retry.Policy{MaxAttempts: 100}, AttemptTimeout: time.Hour}},
		{name: "reserve without total", cfg: callpath.Config{FallbackReserve: time.Hour}},
		{name: "huge attempt count", cfg: callpath.Config{Timeout: time.Hour, Retry: &retry.Policy{MaxAttempts: 1 << 62}, AttemptTimeout: time.Nanosecond},
			field: "AttemptTimeout"},
		{name: "negative timeout", cfg: callpath.Config{Timeout: -time.Second},
			field: "Timeout", text: "callpath: invalid Config.Timeout -1s: must not be negative"},
		{name: "negative reserve", cfg: callpath.Config{FallbackReserve: -1},
			field: "FallbackReserve", text: "callpath: invalid Config.FallbackReserve -1ns: must not be negative"},
		{name: "reserve takes all", cfg: callpath.Config{Timeout: time.Second, FallbackReserve: time.Second},
			field: "FallbackReserve", text: "callpath: invalid Config.FallbackReserve 1s: must be below Timeout 1s (no time would be left for the call itself)"},
		{name: "negative attempt timeout", cfg: callpath.Config{AttemptTimeout: -time.Millisecond},
			field: "AttemptTimeout", text: "callpath: invalid Config.AttemptTimeout -1ms: must not be negative"},
		{name: "attempt longer than total", cfg: callpath.Config{Timeout: time.Second, AttemptTimeout: 2 * time.Second},
			field: "AttemptTimeout", text: "callpath: invalid Config.AttemptTimeout 2s: must not exceed Timeout 1s (the total deadline would cut the last attempts short)"},
		{name: "attempts do not fit", cfg: callpath.Config{Timeout: time.Second, Retry: &retry.Policy{}, AttemptTimeout: 400 * time.Millisecond},
			field: "AttemptTimeout", text: "callpath: invalid Config.AttemptTimeout 400ms: times the retry's 3 attempts must not exceed Timeout 1s (the total deadline would cut the last attempts short)"},
		{name: "attempts do not fit with the reserve", cfg: callpath.Config{Timeout: time.Second, FallbackReserve: 200 * time.Millisecond, Retry: &retry.Policy{MaxAttempts: 3}, AttemptTimeout: 300 * time.Millisecond},
			field: "AttemptTimeout", text: "callpath: invalid Config.AttemptTimeout 300ms: times the retry's 3 attempts must not exceed Timeout 1s less FallbackReserve 200ms (the total deadline would cut the last attempts short)"},
		{name: "invalid retry policy", cfg: callpath.Config{Retry: &retry.Policy{MaxAttempts: -1}},
			field: "Retry", text: "callpath: invalid Config.Retry: is not a valid policy: retry: invalid Policy.MaxAttempts -1: want at least 1 (or 0 for the default, 3)"},
		{name: "retry with its own attempt timeout", cfg: callpath.Config{Retry: &retry.Policy{PerAttemptTimeout: time.Second}},
			field: "Retry", text: "callpath: invalid Config.Retry: has a PerAttemptTimeout; set Config.AttemptTimeout instead, which applies inside the bulkhead"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := callpath.New(tt.cfg)
			if tt.field == "" {
				require.NoError(t, err)
				require.NotNil(t, p)
				return
			}
			assert.Nil(t, p)
			var ce *callpath.ConfigError
			require.ErrorAs(t, err, &ce)
			assert.Equal(t, tt.field, ce.Field)
			if tt.text != "" {
				assert.Equal(t, tt.text, err.Error())
			}
		})
	}
}

func TestNewInvalidRetryUnwraps(t *testing.T) {
	_, err := callpath.New(callpath.Config{Retry: &retry.Policy{BaseDelay: -1}})
	var rce *retry.ConfigError
	assert.ErrorAs(t, err, &rce)
}
