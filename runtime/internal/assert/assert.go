// Package assert holds the test assertions of the runtime module's tests,
// written on the standard library so that the module requires nothing. Each
// function reports a failure with t.Errorf and returns whether the check
// held; package require has the same functions, which stop the test.
//
// msgAndArgs, where given, is a format string and its arguments, added to
// the failure message.
package assert

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strings"
)

// T is what the assertions need of a *testing.T or *testing.B.
type T interface {
	Helper()
	Errorf(format string, args ...any)
}

func fail(t T, msgAndArgs []any, format string, args ...any) bool {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if m := message(msgAndArgs); m != "" {
		msg += "\n\tmessage: " + m
	}
	t.Errorf("%s", msg)
	return false
}

func message(msgAndArgs []any) string {
	if len(msgAndArgs) == 0 {
		return ""
	}
	if f, ok := msgAndArgs[0].(string); ok {
		return fmt.Sprintf(f, msgAndArgs[1:]...)
	}
	return fmt.Sprint(msgAndArgs...)
}

// ObjectsAreEqual reports whether expected and actual are deeply equal
// ([]byte compared by content).
func ObjectsAreEqual(expected, actual any) bool {
	if expected == nil || actual == nil {
		return expected == actual
	}
	eb, ok1 := expected.([]byte)
	ab, ok2 := actual.([]byte)
	if ok1 && ok2 {
		return bytes.Equal(eb, ab)
	}
	return reflect.DeepEqual(expected, actual)
}

func Equal(t T, expected, actual any, msgAndArgs ...any) bool {
	t.Helper()
	if !ObjectsAreEqual(expected, actual) {
		return fail(t, msgAndArgs, "not equal:\n\texpected: %#v\n\tactual:   %#v", expected, actual)
	}
	return true
}

func NotEqual(t T, expected, actual any, msgAndArgs ...any) bool {
	t.Helper()
	if ObjectsAreEqual(expected, actual) {
		return fail(t, msgAndArgs, "should not be %#v", actual)
	}
	return true
}

func EqualError(t T, err error, want string, msgAndArgs ...any) bool {
	t.Helper()
	if err == nil {
		return fail(t, msgAndArgs, "an error %q is expected, got nil", want)
	}
	if err.Error() != want {
		return fail(t, msgAndArgs, "error message:\n\texpected: %q\n\tactual:   %q", want, err.Error())
	}
	return true
}

func ErrorContains(t T, err error, substr string, msgAndArgs ...any) bool {
	t.Helper()
	if err == nil {
		return fail(t, msgAndArgs, "an error containing %q is expected, got nil", substr)
	}
	if !strings.Contains(err.Error(), substr) {
		return fail(t, msgAndArgs, "error %q does not contain %q", err.Error(), substr)
	}
	return true
}

func ErrorIs(t T, err, target error, msgAndArgs ...any) bool {
	t.Helper()
	if !errors.Is(err, target) {
		return fail(t, msgAndArgs, "error %v (%T) is not %v", err, err, target)
	}
	return true
}

func NotErrorIs(t T, err, target error, msgAndArgs ...any) bool {
	t.Helper()
	if errors.Is(err, target) {
		return fail(t, msgAndArgs, "error %v should not be %v", err, target)
	}
	return true
}

func ErrorAs(t T, err error, target any, msgAndArgs ...any) bool {
	t.Helper()
	if !errors.As(err, target) {
		return fail(t, msgAndArgs, "error %v (%T) is not a %T", err, err, target)
	}
	return true
}

func Error(t T, err error, msgAndArgs ...any) bool {
	t.Helper()
	if err == nil {
		return fail(t, msgAndArgs, "an error is expected, got nil")
	}
	return true
}

func NoError(t T, err error, msgAndArgs ...any) bool {
	t.Helper()
	if err != nil {
		return fail(t, msgAndArgs, "unexpected error: %v", err)
	}
	return true
}

func True(t T, value bool, msgAndArgs ...any) bool {
	t.Helper()
	if !value {
		return fail(t, msgAndArgs, "should be true")
	}
	return true
}

func False(t T, value bool, msgAndArgs ...any) bool {
	t.Helper()
	if value {
		return fail(t, msgAndArgs, "should be false")
	}
	return true
}

func isNil(v any) bool {
	if v == nil {
		return true
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Chan, reflect.Func, reflect.Interface, reflect.Map, reflect.Pointer, reflect.Slice, reflect.UnsafePointer:
		return rv.IsNil()
	}
	return false
}

func Nil(t T, v any, msgAndArgs ...any) bool {
	t.Helper()
	if !isNil(v) {
		return fail(t, msgAndArgs, "should be nil: %#v", v)
	}
	return true
}

func NotNil(t T, v any, msgAndArgs ...any) bool {
	t.Helper()
	if isNil(v) {
		return fail(t, msgAndArgs, "should not be nil")
	}
	return true
}

func isZero(v any) bool {
	return v == nil || reflect.ValueOf(v).IsZero()
}

func Zero(t T, v any, msgAndArgs ...any) bool {
	t.Helper()
	if !isZero(v) {
		return fail(t, msgAndArgs, "should be zero: %#v", v)
	}
	return true
}

func isEmpty(v any) bool {
	if v == nil {
		return true
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Array, reflect.Chan, reflect.Map, reflect.Slice, reflect.String:
		return rv.Len() == 0
	case reflect.Pointer:
		if rv.IsNil() {
			return true
		}
		return isEmpty(rv.Elem().Interface())
	}
	return rv.IsZero()
}

func Empty(t T, v any, msgAndArgs ...any) bool {
	t.Helper()
	if !isEmpty(v) {
		return fail(t, msgAndArgs, "should be empty: %#v", v)
	}
	return true
}

func NotEmpty(t T, v any, msgAndArgs ...any) bool {
	t.Helper()
	if isEmpty(v) {
		return fail(t, msgAndArgs, "should not be empty: %#v", v)
	}
	return true
}

func Len(t T, v any, n int, msgAndArgs ...any) bool {
	t.Helper()
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Array, reflect.Chan, reflect.Map, reflect.Slice, reflect.String:
		if rv.Len() != n {
			return fail(t, msgAndArgs, "should have %d items, has %d: %#v", n, rv.Len(), v)
		}
		return true
	}
	return fail(t, msgAndArgs, "%#v has no length", v)
}

// contains reports whether s contains elem: a substring of a string, an
// element of a slice or array, a key of a map.
func contains(s, elem any) (found, ok bool) {
	rv := reflect.ValueOf(s)
	switch rv.Kind() {
	case reflect.String:
		e, isStr := elem.(string)
		if !isStr {
			return false, false
		}
		return strings.Contains(rv.String(), e), true
	case reflect.Slice, reflect.Array:
		for i := range rv.Len() {
			if ObjectsAreEqual(rv.Index(i).Interface(), elem) {
				return true, true
			}
		}
		return false, true
	case reflect.Map:
		for _, k := range rv.MapKeys() {
			if ObjectsAreEqual(k.Interface(), elem) {
				return true, true
			}
		}
		return false, true
	}
	return false, false
}

func Contains(t T, s, elem any, msgAndArgs ...any) bool {
	t.Helper()
	found, ok := contains(s, elem)
	if !ok {
		return fail(t, msgAndArgs, "%#v cannot contain %#v", s, elem)
	}
	if !found {
		return fail(t, msgAndArgs, "%#v does not contain %#v", s, elem)
	}
	return true
}

func NotContains(t T, s, elem any, msgAndArgs ...any) bool {
	t.Helper()
	found, ok := contains(s, elem)
	if !ok {
		return fail(t, msgAndArgs, "%#v cannot contain %#v", s, elem)
	}
	if found {
		return fail(t, msgAndArgs, "%#v should not contain %#v", s, elem)
	}
	return true
}

func Same(t T, expected, actual any, msgAndArgs ...any) bool {
	t.Helper()
	if !samePointer(expected, actual) {
		return fail(t, msgAndArgs, "not the same pointer: %p and %p", expected, actual)
	}
	return true
}

func NotSame(t T, expected, actual any, msgAndArgs ...any) bool {
	t.Helper()
	if samePointer(expected, actual) {
		return fail(t, msgAndArgs, "the same pointer: %p", actual)
	}
	return true
}

func samePointer(a, b any) bool {
	ra, rb := reflect.ValueOf(a), reflect.ValueOf(b)
	if ra.Kind() != reflect.Pointer || rb.Kind() != reflect.Pointer || ra.Type() != rb.Type() {
		return false
	}
	return ra.Pointer() == rb.Pointer()
}

func Regexp(t T, re string, s string, msgAndArgs ...any) bool {
	t.Helper()
	if !regexp.MustCompile(re).MatchString(s) {
		return fail(t, msgAndArgs, "%q does not match %q", s, re)
	}
	return true
}

func JSONEq(t T, expected, actual string, msgAndArgs ...any) bool {
	t.Helper()
	var e, a any
	if err := json.Unmarshal([]byte(expected), &e); err != nil {
		return fail(t, msgAndArgs, "expected is not JSON: %v", err)
	}
	if err := json.Unmarshal([]byte(actual), &a); err != nil {
		return fail(t, msgAndArgs, "actual is not JSON: %v: %s", err, actual)
	}
	if !reflect.DeepEqual(e, a) {
		return fail(t, msgAndArgs, "JSON not equal:\n\texpected: %s\n\tactual:   %s", expected, actual)
	}
	return true
}

func InDelta(t T, expected, actual any, delta float64, msgAndArgs ...any) bool {
	t.Helper()
	e, ok1 := toFloat(expected)
	a, ok2 := toFloat(actual)
	if !ok1 || !ok2 {
		return fail(t, msgAndArgs, "InDelta needs numbers: %#v, %#v", expected, actual)
	}
	if d := e - a; d > delta || -d > delta {
		return fail(t, msgAndArgs, "%v and %v differ by more than %v", expected, actual, delta)
	}
	return true
}

func toFloat(v any) (float64, bool) {
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(rv.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return float64(rv.Uint()), true
	case reflect.Float32, reflect.Float64:
		return rv.Float(), true
	}
	return 0, false
}

// Ordered is what Less and its kin compare.
type Ordered interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr | ~float32 | ~float64 | ~string
}

func Less[O Ordered](t T, a, b O, msgAndArgs ...any) bool {
	t.Helper()
	if !(a < b) {
		return fail(t, msgAndArgs, "%v should be less than %v", a, b)
	}
	return true
}

func LessOrEqual[O Ordered](t T, a, b O, msgAndArgs ...any) bool {
	t.Helper()
	if !(a <= b) {
		return fail(t, msgAndArgs, "%v should be at most %v", a, b)
	}
	return true
}

func Greater[O Ordered](t T, a, b O, msgAndArgs ...any) bool {
	t.Helper()
	if !(a > b) {
		return fail(t, msgAndArgs, "%v should be greater than %v", a, b)
	}
	return true
}

func GreaterOrEqual[O Ordered](t T, a, b O, msgAndArgs ...any) bool {
	t.Helper()
	if !(a >= b) {
		return fail(t, msgAndArgs, "%v should be at least %v", a, b)
	}
	return true
}

func Positive[O Ordered](t T, a O, msgAndArgs ...any) bool {
	t.Helper()
	var zero O
	if !(a > zero) {
		return fail(t, msgAndArgs, "%v should be positive", a)
	}
	return true
}

// PanicsWithValue reports whether f panics with exactly value.
func PanicsWithValue(t T, value any, f func(), msgAndArgs ...any) bool {
	t.Helper()
	panicked, got := didPanic(f)
	if !panicked {
		return fail(t, msgAndArgs, "should panic with %#v", value)
	}
	if !ObjectsAreEqual(value, got) {
		return fail(t, msgAndArgs, "panicked with %#v, want %#v", got, value)
	}
	return true
}

func Panics(t T, f func(), msgAndArgs ...any) bool {
	t.Helper()
	if panicked, _ := didPanic(f); !panicked {
		return fail(t, msgAndArgs, "should panic")
	}
	return true
}

func didPanic(f func()) (panicked bool, value any) {
	panicked = true
	defer func() { value = recover() }()
	f()
	panicked = false
	return
}

func Fail(t T, msg string, msgAndArgs ...any) bool {
	t.Helper()
	return fail(t, msgAndArgs, "%s", msg)
}
