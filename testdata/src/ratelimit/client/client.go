package client

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"

	"ratelimit/retryafter"
)

var errGiveUp = errors.New("give up")

// Retries on 429 and waits its own backoff.
func fetch(c *http.Client, url string) (*http.Response, error) {
	for attempt := 0; attempt < 5; attempt++ {
		resp, err := c.Get(url)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable {
			resp.Body.Close()
			time.Sleep(rand.N(time.Duration(1<<attempt) * time.Second)) // want `retry loop retries on 429 and 503 but waits its own delay without reading the response's Retry-After`
			continue
		}
		return resp, nil
	}
	return nil, errGiveUp
}

// A switch on the status.
func fetchSwitch(c *http.Client, url string) (*http.Response, error) {
	for attempt := 0; attempt < 5; attempt++ {
		resp, err := c.Get(url)
		if err != nil {
			return nil, err
		}
		switch resp.StatusCode {
		case 429:
			resp.Body.Close()
			time.Sleep(rand.N(time.Second)) // want `retry loop retries on 429 but waits its own delay`
			continue
		}
		return resp, nil
	}
	return nil, errGiveUp
}

// The status test is in a helper of another package.
func fetchHelper(c *http.Client, url string) (*http.Response, error) {
	for attempt := 0; attempt < 5; attempt++ {
		resp, err := c.Get(url)
		if err != nil {
			return nil, err
		}
		if retryafter.Retryable(resp.StatusCode) {
			resp.Body.Close()
			time.Sleep(rand.N(time.Second)) // want `retry loop retries on 429 but waits`
			continue
		}
		return resp, nil
	}
	return nil, errGiveUp
}

// --- near misses ---

// Reads Retry-After itself.
func okReads(c *http.Client, url string) (*http.Response, error) {
	for attempt := 0; attempt < 5; attempt++ {
		resp, err := c.Get(url)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode == http.StatusTooManyRequests {
			d := time.Second
			if s, err := strconv.Atoi(resp.Header.Get("retry-after")); err == nil {
				d = time.Duration(s) * time.Second
			}
			resp.Body.Close()
			time.Sleep(d + rand.N(time.Second))
			continue
		}
		return resp, nil
	}
	return nil, errGiveUp
}

// Reads it through a helper of another package.
func okHelper(c *http.Client, url string) (*http.Response, error) {
	for attempt := 0; attempt < 5; attempt++ {
		resp, err := c.Get(url)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode == http.StatusServiceUnavailable {
			resp.Body.Close()
			time.Sleep(retryafter.Delay(resp, rand.N(time.Second)))
			continue
		}
		return resp, nil
	}
	return nil, errGiveUp
}

// Retries only on 500 (no Retry-After expected).
func okOnly500(c *http.Client, url string) (*http.Response, error) {
	for attempt := 0; attempt < 5; attempt++ {
		resp, err := c.Get(url)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode == http.StatusInternalServerError {
			resp.Body.Close()
			time.Sleep(rand.N(time.Second))
			continue
		}
		return resp, nil
	}
	return nil, errGiveUp
}

// Not a retry: polling a queue of URLs.
func okNotRetry(c *http.Client, urls []string) {
	for _, u := range urls {
		resp, err := c.Get(u)
		if err != nil {
			continue
		}
		if resp.StatusCode == http.StatusTooManyRequests {
			time.Sleep(time.Second)
		}
		resp.Body.Close()
	}
}

// The response is tested by a helper it is given to.
func fetchRespHelper(c *http.Client, url string) (*http.Response, error) {
	for attempt := 0; attempt < 5; attempt++ {
		resp, err := c.Get(url)
		if err != nil {
			return nil, err
		}
		if retryafter.Throttled(resp) {
			resp.Body.Close()
			time.Sleep(rand.N(time.Second)) // want `retry loop retries on 503 but waits`
			continue
		}
		return resp, nil
	}
	return nil, errGiveUp
}

// A helper that sends and tests its own response returns only an error:
// the loop retries errors, not statuses it can see.
func okOpaque(c *http.Client, url string) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		if err = retryafter.Call(c, url); err == nil {
			return nil
		}
		time.Sleep(rand.N(time.Second))
	}
	return err
}

// delayFrom reads the delay from the first of the headers it knows, by
// names it iterates over: which header it reads is not a constant.
func delayFrom(resp *http.Response, attempt int) time.Duration {
	for _, name := range []string{"Retry-After-Ms", "Retry-After"} {
		if v := resp.Header.Get(name); v != "" {
			if n, err := strconv.Atoi(v); err == nil {
				return time.Duration(n) * time.Second
			}
		}
	}
	return rand.N(time.Duration(1<<attempt) * time.Second)
}

// A header read by a name the model cannot see may be Retry-After's: no
// finding.
func fetchHeaderTable(c *http.Client, url string) (*http.Response, error) {
	for attempt := 0; attempt < 5; attempt++ {
		resp, err := c.Get(url)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode == http.StatusTooManyRequests {
			resp.Body.Close()
			time.Sleep(delayFrom(resp, attempt))
			continue
		}
		return resp, nil
	}
	return nil, errGiveUp
}

// delayLogged reads another header, by a constant name.
func delayLogged(resp *http.Response, attempt int) time.Duration {
	_ = resp.Header.Get("X-Request-Id")
	return rand.N(time.Duration(1<<attempt) * time.Second)
}

// The near miss: reading another header is not reading Retry-After.
func fetchOtherHeader(c *http.Client, url string) (*http.Response, error) {
	for attempt := 0; attempt < 5; attempt++ {
		resp, err := c.Get(url)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode == http.StatusTooManyRequests {
			resp.Body.Close()
			time.Sleep(delayLogged(resp, attempt)) // want `retry loop retries on 429 but waits its own delay`
			continue
		}
		return resp, nil
	}
	return nil, errGiveUp
}

// shouldRetry defers to the server's own word on retrying, and retries
// 5xx and 429 when it says nothing.
func shouldRetry(resp *http.Response) bool {
	switch resp.Header.Get("X-Should-Retry") {
	case "true":
		return true
	case "false":
		return false
	}
	return resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500
}

// The API steers retries with a header of its own, which the loop reads:
// no finding.
func fetchAdvised(c *http.Client, url string) (*http.Response, error) {
	for attempt := 0; attempt < 5; attempt++ {
		resp, err := c.Get(url)
		if err != nil {
			return nil, err
		}
		if shouldRetry(resp) {
			resp.Body.Close()
			time.Sleep(rand.N(time.Duration(1<<attempt) * time.Second))
			continue
		}
		return resp, nil
	}
	return nil, errGiveUp
}

// Reading the reset time of a rate-limit window is reading when to come
// back: no finding.
func fetchReset(c *http.Client, url string) (*http.Response, error) {
	for attempt := 0; attempt < 5; attempt++ {
		resp, err := c.Get(url)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode == http.StatusTooManyRequests {
			resp.Body.Close()
			d := rand.N(time.Second)
			if n, err := strconv.Atoi(resp.Header.Get("X-RateLimit-Reset")); err == nil {
				d = time.Until(time.Unix(int64(n), 0))
			}
			time.Sleep(d)
			continue
		}
		return resp, nil
	}
	return nil, errGiveUp
}

// An API's own name for the time to wait (Discord's
// X-RateLimit-Reset-After) is when to come back too: no finding.
func fetchResetAfter(c *http.Client, url string) (*http.Response, error) {
	for attempt := 0; attempt < 5; attempt++ {
		resp, err := c.Get(url)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode == http.StatusTooManyRequests {
			resp.Body.Close()
			d := rand.N(time.Second)
			if s, err := strconv.ParseFloat(resp.Header.Get("X-RateLimit-Reset-After"), 64); err == nil {
				d = time.Duration(s * float64(time.Second))
			}
			time.Sleep(d)
			continue
		}
		return resp, nil
	}
	return nil, errGiveUp
}

// Pacer is told of every response and makes the next attempt wait; an
// implementation the model cannot see may read Retry-After there.
type Pacer interface {
	Record(resp *http.Response)
	Wait(ctx context.Context) error
}

// Every response goes to the pacer: not reported.
func fetchPaced(ctx context.Context, c *http.Client, p Pacer, url string) (*http.Response, error) {
	for attempt := 0; attempt < 5; attempt++ {
		if err := p.Wait(ctx); err != nil {
			return nil, err
		}
		resp, err := c.Get(url)
		if err != nil {
			return nil, err
		}
		p.Record(resp)
		if resp.StatusCode == http.StatusTooManyRequests {
			resp.Body.Close()
			time.Sleep(rand.N(time.Second))
			continue
		}
		return resp, nil
	}
	return nil, errGiveUp
}

// A function value that says how long to wait is given every response:
// not reported either.
func fetchHinted(c *http.Client, hint func(*http.Response) time.Duration, url string) (*http.Response, error) {
	for attempt := 0; attempt < 5; attempt++ {
		resp, err := c.Get(url)
		if err != nil {
			return nil, err
		}
		d := hint(resp)
		if resp.StatusCode == http.StatusTooManyRequests {
			resp.Body.Close()
			time.Sleep(d + rand.N(time.Second))
			continue
		}
		return resp, nil
	}
	return nil, errGiveUp
}

// Plugin only observes responses: it cannot make the retry wait.
type Plugin interface {
	OnRequestEnd(req *http.Request, resp *http.Response)
}

// A plugin told of every response paces nothing: reported.
func fetchObserved(c *http.Client, pl Plugin, url string) (*http.Response, error) {
	for attempt := 0; attempt < 5; attempt++ {
		resp, err := c.Get(url)
		if err != nil {
			return nil, err
		}
		pl.OnRequestEnd(resp.Request, resp)
		if resp.StatusCode == http.StatusTooManyRequests {
			resp.Body.Close()
			time.Sleep(rand.N(time.Second)) // want `retry loop retries on 429 but waits its own delay`
			continue
		}
		return resp, nil
	}
	return nil, errGiveUp
}

// A logger given the response as any value reads no header: reported.
func fetchLogged(c *http.Client, logf func(string, ...any), url string) (*http.Response, error) {
	for attempt := 0; attempt < 5; attempt++ {
		resp, err := c.Get(url)
		if err != nil {
			return nil, err
		}
		logf("response %v", resp)
		if resp.StatusCode == http.StatusTooManyRequests {
			resp.Body.Close()
			time.Sleep(rand.N(time.Second)) // want `retry loop retries on 429 but waits its own delay`
			continue
		}
		return resp, nil
	}
	return nil, errGiveUp
}

// Near miss: it retries every server error, a range that names no status:
// 503 is one failure among many to it, with no server asking for a pause.
// Not reported.
func okServerErrors(c *http.Client, url string) (*http.Response, error) {
	for attempt := 0; attempt < 5; attempt++ {
		resp, err := c.Get(url)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode >= http.StatusInternalServerError {
			resp.Body.Close()
			time.Sleep(rand.N(time.Duration(1<<attempt) * time.Second))
			continue
		}
		return resp, nil
	}
	return nil, errGiveUp
}
