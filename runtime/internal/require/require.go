// Package require has the assertions of package assert, each stopping the
// test (t.FailNow) when its check fails.
package require

import "github.com/resilint/resilint/runtime/internal/assert"

// T is what the assertions need of a *testing.T or *testing.B.
type T interface {
	Helper()
	Errorf(format string, args ...any)
	FailNow()
}

func Equal(t T, expected, actual any, msgAndArgs ...any) {
	t.Helper()
	if !assert.Equal(t, expected, actual, msgAndArgs...) {
		t.FailNow()
	}
}

func NotEqual(t T, expected, actual any, msgAndArgs ...any) {
	t.Helper()
	if !assert.NotEqual(t, expected, actual, msgAndArgs...) {
		t.FailNow()
	}
}

func EqualError(t T, err error, want string, msgAndArgs ...any) {
	t.Helper()
	if !assert.EqualError(t, err, want, msgAndArgs...) {
		t.FailNow()
	}
}

func ErrorContains(t T, err error, substr string, msgAndArgs ...any) {
	t.Helper()
	if !assert.ErrorContains(t, err, substr, msgAndArgs...) {
		t.FailNow()
	}
}

func ErrorIs(t T, err, target error, msgAndArgs ...any) {
	t.Helper()
	if !assert.ErrorIs(t, err, target, msgAndArgs...) {
		t.FailNow()
	}
}

func NotErrorIs(t T, err, target error, msgAndArgs ...any) {
	t.Helper()
	if !assert.NotErrorIs(t, err, target, msgAndArgs...) {
		t.FailNow()
	}
}

func ErrorAs(t T, err error, target any, msgAndArgs ...any) {
	t.Helper()
	if !assert.ErrorAs(t, err, target, msgAndArgs...) {
		t.FailNow()
	}
}

func Error(t T, err error, msgAndArgs ...any) {
	t.Helper()
	if !assert.Error(t, err, msgAndArgs...) {
		t.FailNow()
	}
}

func NoError(t T, err error, msgAndArgs ...any) {
	t.Helper()
	if !assert.NoError(t, err, msgAndArgs...) {
		t.FailNow()
	}
}

func True(t T, value bool, msgAndArgs ...any) {
	t.Helper()
	if !assert.True(t, value, msgAndArgs...) {
		t.FailNow()
	}
}

func False(t T, value bool, msgAndArgs ...any) {
	t.Helper()
	if !assert.False(t, value, msgAndArgs...) {
		t.FailNow()
	}
}

func Nil(t T, v any, msgAndArgs ...any) {
	t.Helper()
	if !assert.Nil(t, v, msgAndArgs...) {
		t.FailNow()
	}
}

func NotNil(t T, v any, msgAndArgs ...any) {
	t.Helper()
	if !assert.NotNil(t, v, msgAndArgs...) {
		t.FailNow()
	}
}

func Zero(t T, v any, msgAndArgs ...any) {
	t.Helper()
	if !assert.Zero(t, v, msgAndArgs...) {
		t.FailNow()
	}
}

func Empty(t T, v any, msgAndArgs ...any) {
	t.Helper()
	if !assert.Empty(t, v, msgAndArgs...) {
		t.FailNow()
	}
}

func NotEmpty(t T, v any, msgAndArgs ...any) {
	t.Helper()
	if !assert.NotEmpty(t, v, msgAndArgs...) {
		t.FailNow()
	}
}

func Len(t T, v any, n int, msgAndArgs ...any) {
	t.Helper()
	if !assert.Len(t, v, n, msgAndArgs...) {
		t.FailNow()
	}
}

func Contains(t T, s, elem any, msgAndArgs ...any) {
	t.Helper()
	if !assert.Contains(t, s, elem, msgAndArgs...) {
		t.FailNow()
	}
}

func NotContains(t T, s, elem any, msgAndArgs ...any) {
	t.Helper()
	if !assert.NotContains(t, s, elem, msgAndArgs...) {
		t.FailNow()
	}
}

func Same(t T, expected, actual any, msgAndArgs ...any) {
	t.Helper()
	if !assert.Same(t, expected, actual, msgAndArgs...) {
		t.FailNow()
	}
}

func NotSame(t T, expected, actual any, msgAndArgs ...any) {
	t.Helper()
	if !assert.NotSame(t, expected, actual, msgAndArgs...) {
		t.FailNow()
	}
}

func Regexp(t T, re string, s string, msgAndArgs ...any) {
	t.Helper()
	if !assert.Regexp(t, re, s, msgAndArgs...) {
		t.FailNow()
	}
}

func JSONEq(t T, expected, actual string, msgAndArgs ...any) {
	t.Helper()
	if !assert.JSONEq(t, expected, actual, msgAndArgs...) {
		t.FailNow()
	}
}

func InDelta(t T, expected, actual any, delta float64, msgAndArgs ...any) {
	t.Helper()
	if !assert.InDelta(t, expected, actual, delta, msgAndArgs...) {
		t.FailNow()
	}
}

func Less[O assert.Ordered](t T, a, b O, msgAndArgs ...any) {
	t.Helper()
	if !assert.Less(t, a, b, msgAndArgs...) {
		t.FailNow()
	}
}

func LessOrEqual[O assert.Ordered](t T, a, b O, msgAndArgs ...any) {
	t.Helper()
	if !assert.LessOrEqual(t, a, b, msgAndArgs...) {
		t.FailNow()
	}
}

func Greater[O assert.Ordered](t T, a, b O, msgAndArgs ...any) {
	t.Helper()
	if !assert.Greater(t, a, b, msgAndArgs...) {
		t.FailNow()
	}
}

func GreaterOrEqual[O assert.Ordered](t T, a, b O, msgAndArgs ...any) {
	t.Helper()
	if !assert.GreaterOrEqual(t, a, b, msgAndArgs...) {
		t.FailNow()
	}
}

func Positive[O assert.Ordered](t T, a O, msgAndArgs ...any) {
	t.Helper()
	if !assert.Positive(t, a, msgAndArgs...) {
		t.FailNow()
	}
}

func PanicsWithValue(t T, value any, f func(), msgAndArgs ...any) {
	t.Helper()
	if !assert.PanicsWithValue(t, value, f, msgAndArgs...) {
		t.FailNow()
	}
}

func Panics(t T, f func(), msgAndArgs ...any) {
	t.Helper()
	if !assert.Panics(t, f, msgAndArgs...) {
		t.FailNow()
	}
}

func Fail(t T, msg string, msgAndArgs ...any) {
	t.Helper()
	if !assert.Fail(t, msg, msgAndArgs...) {
		t.FailNow()
	}
}

// FailNow fails the test at once with msg.
func FailNow(t T, msg string, msgAndArgs ...any) {
	t.Helper()
	assert.Fail(t, msg, msgAndArgs...)
	t.FailNow()
}
