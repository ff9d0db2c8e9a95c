// Package retryablehttp is a reduction, written for this test, of a
// retrying HTTP client library analyzed by itself: its convenience
// methods and package-level shortcuts are catalogued retrying sends, but
// here their bodies are visible. A POST is one finding, where the method
// is known (Client.Post's send); the wrappers that only pass the request
// on are related locations, not findings of their own.
package retryablehttp

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Request wraps a request whose body can be read again.
type Request struct {
	*http.Request
}

// NewRequest makes a request.
func NewRequest(method, url string, body io.Reader) (*Request, error) {
	r, err := http.NewRequest(method, url, body)
	if err != nil {
		return nil, err
	}
	return &Request{r}, nil
}

// Client retries its sends.
type Client struct {
	HTTPClient *http.Client
	RetryMax   int
}

var defaultClient = &Client{HTTPClient: &http.Client{Timeout: 30 * time.Second}, RetryMax: 4}

// Do sends whatever request it is given: its method is the caller's, so
// nothing is said here.
func (c *Client) Do(req *Request) (*http.Response, error) {
	var resp *http.Response
	var err error
	for i := 0; i <= c.RetryMax; i++ {
		resp, err = c.HTTPClient.Do(req.Request)
		if err == nil && resp.StatusCode < http.StatusInternalServerError {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return resp, err
}

// Get sends a GET: idempotent, no finding.
func (c *Client) Get(url string) (*http.Response, error) {
	req, err := NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	return c.Do(req)
}

// Post makes the POST and sends it. It is itself a catalogued retrying
// send: its row describes it to its callers, who are reported where they
// call it, with their endpoint; the library's own body is not.
func (c *Client) Post(url, bodyType string, body io.Reader) (*http.Response, error) { // want Post:"key place: retryablehttp.Client.Do at client.go:72"
	req, err := NewRequest(http.MethodPost, url, body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", bodyType)
	return c.Do(req)
}

// PostForm only encodes the form and passes it to Post.
func (c *Client) PostForm(url string, data url.Values) (*http.Response, error) { // want PostForm:"key place: retryablehttp.Client.Do at client.go:72"
	return c.Post(url, "application/x-www-form-urlencoded", strings.NewReader(data.Encode()))
}

// Post and PostForm, without making a client: shortcuts.
func Post(url, bodyType string, body io.Reader) (*http.Response, error) { // want Post:"key place: retryablehttp.Client.Do at client.go:72"
	return defaultClient.Post(url, bodyType, body)
}

func PostForm(url string, data url.Values) (*http.Response, error) { // want PostForm:"key place: retryablehttp.Client.Do at client.go:72"
	return defaultClient.PostForm(url, data)
}

// ---- near misses ---------------------------------------------------------

// A POST made here with a key of its own: no finding (the key belongs
// here, and is set).
func (c *Client) PostOnce(url, key string, body io.Reader) (*http.Response, error) { // want PostOnce:"key place: retryablehttp.Client.Do at client.go:99"
	req, err := NewRequest(http.MethodPost, url, body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Idempotency-Key", key)
	return c.Do(req)
}

// A POST made here, and sent through Do: a request of its own, a finding
// of its own (Do holds none to pass it to).
func (c *Client) Upload(url string, body io.Reader) (*http.Response, error) { // want Upload:"key place: retryablehttp.Client.Do at client.go:109"
	req, err := NewRequest(http.MethodPost, url+"/upload", body)
	if err != nil {
		return nil, err
	}
	return c.Do(req) // want `retryablehttp.Client.Do sends POST inside a retry without an Idempotency-Key header`
}
