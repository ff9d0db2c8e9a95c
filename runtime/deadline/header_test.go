package deadline

import (
	"math"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/resilint/resilint/runtime/internal/assert"
	"github.com/resilint/resilint/runtime/internal/require"
)

func TestParseMillis(t *testing.T) {
	tests := []struct {
		in     string
		want   time.Duration
		reason string
	}{
		{"0", 0, ""},
		{"1", time.Millisecond, ""},
		{"2750", 2750 * time.Millisecond, ""},
		{"007", 7 * time.Millisecond, ""},
		{"9223372036854", 9223372036854 * time.Millisecond, ""}, // the largest Duration in ms
		{"9223372036855", 0, reasonOverflow},
		{"9223372036854775807", 0, reasonOverflow},
		{"99999999999999999999999", 0, reasonOverflow},
		{"99999999999999999999999x", 0, reasonMalformed},
		{"", 0, reasonMalformed},
		{"-1", 0, reasonMalformed},
		{"+1", 0, reasonMalformed},
		{" 1", 0, reasonMalformed},
		{"1.5", 0, reasonMalformed},
		{"1e3", 0, reasonMalformed},
		{"0x10", 0, reasonMalformed},
		{"1s", 0, reasonMalformed},
		{"١٢", 0, reasonMalformed}, // Arabic-Indic digits
		{"NaN", 0, reasonMalformed},
	}
	for _, tt := range tests {
		got, reason := parseMillis(tt.in)
		assert.Equal(t, tt.reason, reason, "%q", tt.in)
		assert.Equal(t, tt.want, got, "%q", tt.in)
	}
}

func TestParseGRPCTimeout(t *testing.T) {
	tests := []struct {
		in     string
		want   time.Duration
		reason string
	}{
		{"1H", time.Hour, ""},
		{"2M", 2 * time.Minute, ""},
		{"3S", 3 * time.Second, ""},
		{"2750m", 2750 * time.Millisecond, ""},
		{"5u", 5 * time.Microsecond, ""},
		{"99999999n", 99999999, ""},
		{"0m", 0, ""},
		{"2562047H", 2562047 * time.Hour, ""},
		{"2562048H", 0, reasonOverflow},
		{"99999999H", 0, reasonOverflow},
		{"123456789m", 0, reasonMalformed}, // nine digits
		{"m", 0, reasonMalformed},
		{"", 0, reasonMalformed},
		{"10", 0, reasonMalformed}, // no unit
		{"10s", 0, reasonMalformed},
		{"10 m", 0, reasonMalformed},
		{"-1m", 0, reasonMalformed},
		{"1.5S", 0, reasonMalformed},
	}
	for _, tt := range tests {
		got, reason := parseGRPCTimeout(tt.in)
		assert.Equal(t, tt.reason, reason, "%q", tt.in)
		assert.Equal(t, tt.want, got, "%q", tt.in)
	}
}

func TestFormatGRPCTimeout(t *testing.T) {
	tests := []struct {
		in   time.Duration
		want string
	}{
		{time.Millisecond, "1m"},
		{2750*time.Millisecond + 999*time.Microsecond, "2750m"}, // rounded down
		{99999999 * time.Millisecond, "99999999m"},
		{100000000 * time.Millisecond, "100000S"},
		{99999999*time.Second + 999*time.Millisecond, "99999999S"},
		{100000000 * time.Second, "1666666M"},
		{math.MaxInt64, "2562047H"},
	}
	for _, tt := range tests {
		got, ok := formatGRPCTimeout(tt.in)
		require.True(t, ok)
		assert.Equal(t, tt.want, got, "%v", tt.in)
		back, reason := parseGRPCTimeout(got)
		require.Empty(t, reason)
		assert.LessOrEqual(t, back, tt.in, "never longer than the time left")
	}
}

// now is a fixed instant for the header tests: 2026-01-01T00:00:00Z.
var testNow = time.UnixMilli(1767225600000)

type ignoredValue struct{ header, value, reason string }

func TestHeaderDeadline(t *testing.T) {
	s, err := MiddlewareConfig{}.settings()
	require.NoError(t, err)
	ms := func(n int64) time.Time { return testNow.Add(time.Duration(n) * time.Millisecond) }
	abs := func(n int64) string { return strconv.FormatInt(testNow.UnixMilli()+n, 10) }
	hour := time.Hour.Milliseconds()

	tests := []struct {
		name    string
		h       http.Header
		want    time.Time // zero: no deadline
		ignored []ignoredValue
	}{
		{"none", http.Header{}, time.Time{}, nil},
		{"relative", http.Header{"X-Timeout-Ms": {"2750"}}, ms(2750), nil},
		{"relative zero", http.Header{"X-Timeout-Ms": {"0"}}, testNow, nil},
		{"relative at the limit", http.Header{"X-Timeout-Ms": {strconv.FormatInt(hour, 10)}}, ms(hour), nil},
		{"relative beyond the limit", http.Header{"X-Timeout-Ms": {strconv.FormatInt(hour+1, 10)}}, time.Time{},
			[]ignoredValue{{"X-Timeout-Ms", "3600001", reasonTooLarge}}},
		{"an epoch sent as relative", http.Header{"X-Timeout-Ms": {abs(0)}}, time.Time{},
			[]ignoredValue{{"X-Timeout-Ms", abs(0), reasonTooLarge}}},
		{"negative", http.Header{"X-Timeout-Ms": {"-100"}}, time.Time{},
			[]ignoredValue{{"X-Timeout-Ms", "-100", reasonMalformed}}},
		{"overflowing", http.Header{"X-Timeout-Ms": {"18446744073709551616"}}, time.Time{},
			[]ignoredValue{{"X-Timeout-Ms", "18446744073709551616", reasonOverflow}}},
		{"long values are cut in the log", http.Header{"X-Timeout-Ms": {strings.Repeat("9", 100)}}, time.Time{},
			[]ignoredValue{{"X-Timeout-Ms", strings.Repeat("9", maxLoggedValue) + "...", reasonOverflow}}},
		{"absolute", http.Header{"X-Deadline-Ms": {abs(1500)}}, ms(1500), nil},
		{"absolute in the past", http.Header{"X-Deadline-Ms": {abs(-1500)}}, ms(-1500), nil},
		{"absolute in seconds", http.Header{"X-Deadline-Ms": {strconv.FormatInt(testNow.Unix()+2, 10)}}, time.Time{},
			[]ignoredValue{{"X-Deadline-Ms", strconv.FormatInt(testNow.Unix()+2, 10), reasonTooOld}}},
		{"absolute too far", http.Header{"X-Deadline-Ms": {abs(hour + 1)}}, time.Time{},
			[]ignoredValue{{"X-Deadline-Ms", abs(hour + 1), reasonTooLarge}}},
		{"absolute overflowing", http.Header{"X-Deadline-Ms": {"9223372036854775808"}}, time.Time{},
			[]ignoredValue{{"X-Deadline-Ms", "9223372036854775808", reasonOverflow}}},
		{"absolute at MaxInt64", http.Header{"X-Deadline-Ms": {"9223372036854775807"}}, time.Time{},
			[]ignoredValue{{"X-Deadline-Ms", "9223372036854775807", reasonTooLarge}}},
		{"grpc", http.Header{"Grpc-Timeout": {"3S"}}, ms(3000), nil},
		{"grpc malformed", http.Header{"Grpc-Timeout": {"3s"}}, time.Time{},
			[]ignoredValue{{"Grpc-Timeout", "3s", reasonMalformed}}},
		{"grpc beyond the limit", http.Header{"Grpc-Timeout": {"2H"}}, time.Time{},
			[]ignoredValue{{"Grpc-Timeout", "2H", reasonTooLarge}}},
		{"the earliest wins", http.Header{
			"X-Timeout-Ms":  {"3000"},
			"X-Deadline-Ms": {abs(2000)},
			"Grpc-Timeout":  {"2500m"},
		}, ms(2000), nil},
		{"a bad value does not hide a good one", http.Header{
			"X-Timeout-Ms":  {"soon"},
			"X-Deadline-Ms": {abs(2000)},
		}, ms(2000), []ignoredValue{{"X-Timeout-Ms", "soon", reasonMalformed}}},
		{"repeated lines and lists", http.Header{"X-Timeout-Ms": {"3000", " 1000 ,, 2000\t"}}, ms(1000), nil},
		{"a list with a bad element", http.Header{"X-Timeout-Ms": {"3000, -1"}}, ms(3000),
			[]ignoredValue{{"X-Timeout-Ms", "-1", reasonMalformed}}},
		{"too many values", http.Header{"X-Timeout-Ms": {"5000, 4000, 3000, 2000, 1000, 0"}}, ms(2000),
			[]ignoredValue{{"X-Timeout-Ms", "", reasonTooMany}}},
		{"empty", http.Header{"X-Timeout-Ms": {""}, "X-Deadline-Ms": {" , "}}, time.Time{}, nil},
		{"other headers", http.Header{"X-Request-Timeout": {"100"}, "Timeout": {"100"}}, time.Time{}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []ignoredValue
			d, ok := s.headerDeadline(tt.h, testNow, func(header, value, reason string) {
				got = append(got, ignoredValue{header, value, reason})
			})
			assert.Equal(t, !tt.want.IsZero(), ok)
			if ok {
				assert.True(t, tt.want.Equal(d), "got %v, want %v", d, tt.want)
			}
			assert.Equal(t, tt.ignored, got)
		})
	}
}

func TestHeaderDeadlineFormats(t *testing.T) {
	h := http.Header{
		"X-Timeout-Ms":  {"3000"},
		"X-Deadline-Ms": {strconv.FormatInt(testNow.UnixMilli()+2000, 10)},
		"Grpc-Timeout":  {"1S"},
		"X-Budget":      {"500"},
	}
	for _, tt := range []struct {
		c    MiddlewareConfig
		want time.Duration
	}{
		{MiddlewareConfig{Format: FormatRelative}, 3 * time.Second},
		{MiddlewareConfig{Format: FormatAbsolute}, 2 * time.Second},
		{MiddlewareConfig{Format: FormatGRPC}, time.Second},
		{MiddlewareConfig{Format: FormatRelative | FormatAbsolute}, 2 * time.Second},
		{MiddlewareConfig{Format: FormatRelative, TimeoutHeader: "x-budget"}, 500 * time.Millisecond},
		{MiddlewareConfig{Format: FormatRelative, MaxBudget: 2 * time.Second}, 0}, // ignored
	} {
		s, err := tt.c.settings()
		require.NoError(t, err)
		d, ok := s.headerDeadline(h, testNow, nil)
		assert.Equal(t, tt.want != 0, ok, "%v", tt.c.Format)
		if ok {
			assert.Equal(t, tt.want, d.Sub(testNow), "%v", tt.c.Format)
		}
	}
}

func TestWriteHeaders(t *testing.T) {
	deadline := testNow.Add(2750*time.Millisecond + 500*time.Microsecond)
	budget := deadline.Sub(testNow)
	stale := func() http.Header {
		return http.Header{"X-Timeout-Ms": {"1"}, "X-Deadline-Ms": {"1"}, "Grpc-Timeout": {"1m"}, "Other": {"kept"}}
	}
	for _, tt := range []struct {
		format Format
		want   http.Header
	}{
		{FormatRelative, http.Header{"X-Timeout-Ms": {"2750"}, "Other": {"kept"}}},
		{FormatAbsolute, http.Header{"X-Deadline-Ms": {"1767225602750"}, "Other": {"kept"}}},
		{FormatGRPC, http.Header{"Grpc-Timeout": {"2750m"}, "Other": {"kept"}}},
		{formatAll, http.Header{"X-Timeout-Ms": {"2750"}, "X-Deadline-Ms": {"1767225602750"}, "Grpc-Timeout": {"2750m"}, "Other": {"kept"}}},
	} {
		s, err := TransportConfig{Format: tt.format}.settings()
		require.NoError(t, err)
		h := stale()
		s.writeHeaders(h, budget, deadline)
		assert.Equal(t, tt.want, h, "%v", tt.format)

		// What is written is read back as no later than the deadline.
		m, err := MiddlewareConfig{Format: tt.format}.settings()
		require.NoError(t, err)
		got, ok := m.headerDeadline(h, testNow, nil)
		require.True(t, ok)
		assert.False(t, got.After(deadline))
		assert.Less(t, deadline.Sub(got), time.Millisecond)
	}
}

// FuzzParseHeaders feeds arbitrary values to every header the Middleware
// reads: parsing never panics, and a deadline it derives is never later
// than now + MaxBudget, nor earlier than now - MaxBudget.
func FuzzParseHeaders(f *testing.F) {
	for _, seed := range [][3]string{
		{"2750", "1767225602750", "2750m"},
		{"-1", "0", "1H"},
		{"18446744073709551616", "9223372036854775807", "99999999H"},
		{"1, 2,, 3", " 1767225600000 ", "2562048H"},
		{"", "", ""},
		{"3600000", "1767229200000", "60M"},
		{"3600001", "1767221999999", "3600001m"},
		{"\x00", "١٢", "1\xffm"},
	} {
		f.Add(seed[0], seed[1], seed[2], int64(0))
	}
	f.Fuzz(func(t *testing.T, rel, abs, grpc string, maxMs int64) {
		c := MiddlewareConfig{Minimum: -1}
		if maxMs > 0 {
			c.MaxBudget = time.Duration(maxMs % int64(100*24*time.Hour))
		}
		s, err := c.settings()
		if err != nil {
			return // MaxBudget rounded to 0: invalid config, nothing to parse
		}
		h := http.Header{"X-Timeout-Ms": {rel}, "X-Deadline-Ms": {abs}, "Grpc-Timeout": {grpc}}
		calls := 0
		d, ok := s.headerDeadline(h, testNow, func(header, value, reason string) {
			calls++
			require.LessOrEqual(t, len(value), maxLoggedValue+3)
			require.NotEmpty(t, reason)
		})
		require.LessOrEqual(t, calls, 3*(maxValues+1))
		if !ok {
			return
		}
		require.False(t, d.After(testNow.Add(s.maxBudget)), "deadline %v beyond now+%v", d, s.maxBudget)
		require.False(t, d.Before(testNow.Add(-s.maxBudget)), "deadline %v before now-%v", d, s.maxBudget)
		// A deadline comes from a value made of digits (and a unit).
		digits := func(v string) bool {
			return strings.ContainsFunc(v, func(r rune) bool { return r >= '0' && r <= '9' })
		}
		require.True(t, digits(rel) || digits(abs) || digits(grpc))
	})
}
