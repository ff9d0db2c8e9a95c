package recstatus

import (
	"errors"
	"time"
)

// code is a protocol's error code: the zero code is no error.
type code int16

func (c code) Error() string { return "code" }

const (
	none     code = 0
	notReady code = 14
	denied   code = 29
)

// answer carries the server's outcome in a field of an error type; the
// call that fetched it returned no error.
type answer struct {
	Err  code
	Addr string
	More bool
}

type broker struct{}

func (b *broker) Locate(key string) (*answer, error) { return &answer{}, nil }

type locator struct {
	b     *broker
	pause time.Duration
}

// Locate asks again after a fixed pause while the answer says not ready,
// through a closure that calls Locate itself: reported.
func (l *locator) Locate(key string, left int) (*answer, error) {
	retry := func(err error) (*answer, error) {
		if left > 0 {
			left--
			time.Sleep(l.pause) // want `retry delay has no jitter`
			return l.Locate(key, left)
		}
		return nil, err
	}
	resp, err := l.b.Locate(key)
	if err != nil {
		return nil, err
	}
	if errors.Is(resp.Err, none) {
		return resp, nil
	} else if errors.Is(resp.Err, notReady) {
		return retry(notReady)
	}
	return nil, resp.Err
}

// Differs sleeps and calls itself on any code but the zero one: reported.
func (l *locator) Differs(key string, left int) (*answer, error) {
	resp, err := l.b.Locate(key)
	if err != nil {
		return nil, err
	}
	if resp.Err != none && left > 0 {
		time.Sleep(time.Second) // want `retry delay has no jitter`
		return l.Differs(key, left-1)
	}
	return resp, nil
}

// Pages calls itself for the next page while the answer carries no error
// and says there is more: no failure, not reported.
func (l *locator) Pages(key string, left int) (*answer, error) {
	resp, err := l.b.Locate(key)
	if err != nil {
		return nil, err
	}
	if resp.Err == none && resp.More && left > 0 {
		time.Sleep(time.Second)
		return l.Pages(key, left-1)
	}
	return resp, nil
}

// NoneIs calls itself again when the code is the zero one, asked through
// errors.Is: a success, not reported.
func (l *locator) NoneIs(key string, left int) (*answer, error) {
	resp, err := l.b.Locate(key)
	if err != nil {
		return nil, err
	}
	if errors.Is(resp.Err, none) && left > 0 {
		time.Sleep(time.Second)
		return l.NoneIs(key, left-1)
	}
	return resp, nil
}

// result keeps a count, not an error, in its field.
type result struct {
	Code  int
	Value string
}

func (b *broker) Fetch(key string) (*result, error) { return &result{}, nil }

// Counted calls itself while a plain integer field is not zero: no error
// is carried, nothing tells a failure, not reported.
func (l *locator) Counted(key string, left int) (*result, error) {
	resp, err := l.b.Fetch(key)
	if err != nil {
		return nil, err
	}
	if resp.Code != 0 && left > 0 {
		time.Sleep(time.Second)
		return l.Counted(key, left-1)
	}
	return resp, nil
}
