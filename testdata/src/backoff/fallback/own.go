package fallback

import (
	"math"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"

	retryablehttp "github.com/hashicorp/go-retryablehttp"
)

// A Backoff that computes its own delay, exponential and capped, with no
// random part: reported, with no fix (the jitter belongs in the function).
func OwnLiteral(url string) (*http.Response, error) {
	c := retryablehttp.NewClient()
	c.Backoff = func(min, max time.Duration, n int, resp *http.Response) time.Duration { // want `retryablehttp.Client.Get waits without jitter \(Backoff: a function whose delays have no random part\)`
		d := time.Duration(math.Pow(2, float64(n)) * float64(min))
		if d > max {
			d = max
		}
		return d
	}
	return c.Get(url)
}

func doubling(lo, hi time.Duration, n int, resp *http.Response) time.Duration {
	return min(lo<<n, hi)
}

// The same, a function of the package.
func OwnFunc(url string) (*http.Response, error) {
	c := &retryablehttp.Client{
		RetryMax: 4,
		Backoff:  doubling, // want `retryablehttp.Client.Get waits without jitter \(Backoff: a function whose delays have no random part\)`
	}
	return c.Get(url)
}

// Near misses: a function that draws a random part, and one whose delay
// on some path comes from the server (Retry-After), which the model does
// not judge.
func OwnRandom(url string) (*http.Response, error) {
	c := retryablehttp.NewClient()
	c.Backoff = func(lo, hi time.Duration, n int, resp *http.Response) time.Duration {
		return rand.N(min(lo<<n, hi))
	}
	return c.Get(url)
}

func OwnServer(url string) (*http.Response, error) {
	c := retryablehttp.NewClient()
	c.Backoff = func(lo, hi time.Duration, n int, resp *http.Response) time.Duration {
		if resp != nil {
			if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil {
				return time.Duration(s) * time.Second
			}
		}
		return min(lo<<n, hi)
	}
	return c.Get(url)
}
