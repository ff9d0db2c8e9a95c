package facts

import (
	"net/http"
	"time"
)

// WithHeaders sets its caller's headers: the caller knows them.
func WithHeaders(c *http.Client, url string, h http.Header) (*http.Response, error) { // want WithHeaders:`sends\(POST; headers of param 2\)`
	req, err := http.NewRequest(http.MethodPost, url, nil)
	if err != nil {
		return nil, err
	}
	req.Header = h
	return c.Do(req)
}

// Named sets the header its caller names.
func Named(c *http.Client, url, name, value string) (*http.Response, error) { // want Named:`sends\(POST; header named by param 2\)`
	req, err := http.NewRequest(http.MethodPost, url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set(name, value)
	return c.Do(req)
}

type conf struct{ extra map[string]string }

// Configured sets headers from a field: not known to anyone.
func (k *conf) Configured(c *http.Client, url string) (*http.Response, error) { // want Configured:`sends\(POST; headers unknown\)`
	req, err := http.NewRequest(http.MethodPost, url, nil)
	if err != nil {
		return nil, err
	}
	for name, v := range k.extra {
		req.Header.Set(name, v)
	}
	return c.Do(req)
}

// Retried retries a send with its caller's method.
func Retried(c *http.Client, method, url string) error { // want Retried:`sends\(param 1; in its retry loop at params.go:\d+\)`
	for i := 0; i < 3; i++ {
		req, err := http.NewRequest(method, url, nil)
		if err != nil {
			return err
		}
		if resp, err := c.Do(req); err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return nil
}
