package closures

import (
	"context"
	"errors"
	"net/http"
)

var errRefused = errors.New("credential refused")

type mirror struct {
	token    string
	anon     bool
	fallback bool
}

func (m *mirror) get(ctx context.Context, url string) error { return errRefused }

// A refused credential is dropped, and the fetch asked once more without
// it: the self-call runs only while the token is set, and the path
// clears it first, so the call it makes cannot recurse again. Bounded,
// and a fallback: one more attempt, asked differently, that no later
// call repeats; no pause is asked for.
func (m *mirror) fetch(ctx context.Context, url string) error {
	err := m.get(ctx, url)
	if err != nil && m.token != "" {
		m.token = ""
		return m.fetch(ctx, url)
	}
	return err
}

// The same with a flag set before the one extra call.
func (m *mirror) fetchOnce(ctx context.Context, url string) error {
	err := m.get(ctx, url)
	if err != nil && !m.anon {
		m.anon = true
		return m.fetchOnce(ctx, url)
	}
	return err
}

// Near misses: the state tested is not the state cleared, or the value
// written does not falsify the test; each self-call may find its test
// true again.
func (m *mirror) fetchOther(ctx context.Context, url string) error {
	err := m.get(ctx, url)
	if err != nil && m.token != "" {
		m.anon = true
		return m.fetchOther(ctx, url) // want `has no bound` `tries again at once`
	}
	return err
}

func (m *mirror) fetchSet(ctx context.Context, url string, token string) error {
	err := m.get(ctx, url)
	if err != nil && !m.fallback {
		m.fallback = false
		return m.fetchSet(ctx, url, token) // want `has no bound` `tries again at once`
	}
	return err
}

// A parameter is the caller's, made anew by every call: clearing a copy
// bounds nothing.
func fetchWith(ctx context.Context, c *http.Client, url, token string) error {
	m := &mirror{token: token}
	err := m.get(ctx, url)
	if err != nil && token != "" {
		token = "x"
		return fetchWith(ctx, c, url, token) // want `has no bound` `tries again at once`
	}
	return err
}
