// Package transports: a client whose Transport bounds the wait for the
// response headers cannot hang on a server that accepts and never
// answers; one whose Transport is not known may; one whose Transport is
// known and bounds nothing is reported as a client without a timeout.
package transports

import (
	"io"
	"net"
	"net/http"
	"time"
)

func fetch(c *http.Client, url string) ([]byte, error) {
	var err error
	for i := 0; i < 3; i++ {
		var resp *http.Response
		resp, err = c.Get(url)
		if err == nil {
			b, rerr := io.ReadAll(resp.Body)
			resp.Body.Close()
			if rerr == nil {
				return b, nil
			}
			err = rerr
		}
		time.Sleep(time.Second)
	}
	return nil, err
}

// Near miss: the transport waits at most 10s for the headers.
func headerBounded(url string) error {
	var err error
	tr := &http.Transport{
		DialContext:           (&net.Dialer{Timeout: 5 * time.Second}).DialContext,
		ResponseHeaderTimeout: 10 * time.Second,
	}
	c := &http.Client{Transport: tr}
	for i := 0; i < 3; i++ {
		var resp *http.Response
		resp, err = c.Get(url)
		if err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// Near miss: the bound set on the transport after it is made.
func headerBoundedLater(url string) error {
	var err error
	tr := &http.Transport{MaxIdleConns: 4}
	tr.ResponseHeaderTimeout = 10 * time.Second
	c := &http.Client{Transport: tr}
	for i := 0; i < 3; i++ {
		var resp *http.Response
		resp, err = c.Get(url)
		if err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// Near miss: a transport the check cannot see into (a caller's) may bound
// the wait: not judged.
func givenTransport(rt http.RoundTripper, url string) error {
	var err error
	c := &http.Client{Transport: rt}
	for i := 0; i < 3; i++ {
		var resp *http.Response
		resp, err = c.Get(url)
		if err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// A transport that only pools connections bounds nothing.
func pooledOnly(url string) error {
	var err error
	tr := &http.Transport{MaxIdleConns: 4, DialContext: (&net.Dialer{Timeout: 5 * time.Second}).DialContext}
	c := &http.Client{Transport: tr}
	for i := 0; i < 3; i++ {
		var resp *http.Response
		resp, err = c.Get(url) // want `http.Client.Get in a retry loop has no timeout`
		if err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// The default transport bounds nothing either.
func defaultTransport(url string) error {
	var err error
	c := &http.Client{Transport: http.DefaultTransport}
	for i := 0; i < 3; i++ {
		var resp *http.Response
		resp, err = c.Get(url) // want `http.Client.Get in a retry loop has no timeout`
		if err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// Made in one function, used in another: the transport is followed there.
type fetcher struct{ hc *http.Client }

func newFetcher() *fetcher {
	tr := &http.Transport{ResponseHeaderTimeout: 10 * time.Second}
	return &fetcher{hc: &http.Client{Transport: tr}}
}

func (f *fetcher) token(url string) error {
	var err error
	for i := 0; i < 3; i++ {
		var resp *http.Response
		resp, err = f.hc.Get(url)
		if err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

var _ = fetch
