package probes

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// Readiness waits that ask for a status and read nothing else, or ping:
// not reported. The near misses send a body, use another method, read
// the response, or do work beside the ping.

// waitHealthy asks with HEAD, once a second until a budget runs out.
func waitHealthy(ctx context.Context, c *http.Client, url string, budget time.Duration) error {
	start := time.Now()
	for {
		req, err := http.NewRequest(http.MethodHead, url, nil)
		if err != nil {
			return err
		}
		req.Header.Set("Accept", "*/*")
		req = req.WithContext(ctx)
		resp, err := c.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode < 300 {
				return nil
			}
		}
		if time.Since(start) > budget {
			return errors.New("not ready")
		}
		time.Sleep(time.Second)
	}
}

// doer sends a request: http.Client, or a test's fake.
type doer interface {
	Do(*http.Request) (*http.Response, error)
}

// waitDoer asks with HEAD through a client interface of Do's signature.
func waitDoer(ctx context.Context, d doer, url string) error {
	for i := 0; i < 10; i++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodHead, url, http.NoBody)
		if err != nil {
			return err
		}
		if resp, err := d.Do(req); err == nil && resp.StatusCode == http.StatusOK {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("not ready")
}

// decoder sends a request and decodes the answer into v.
type decoder interface {
	Send(req *http.Request, v any) (*http.Response, error)
}

// waitDecoded sends through a call that also decodes the body: work,
// reported.
func waitDecoded(ctx context.Context, d decoder, url string) error {
	for i := 0; i < 10; i++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		var v struct{ Ready bool }
		if resp, err := d.Send(req, &v); err == nil && resp.StatusCode == http.StatusOK {
			return nil
		}
		time.Sleep(time.Second) // want `retry delay has no jitter`
	}
	return errors.New("not ready")
}

// waitGet asks with the package's Get and tests the response for nil.
func waitGet(addr string) error {
	for i := 0; i < 20; i++ {
		resp, err := http.Get(addr)
		if err == nil && resp != nil && resp.StatusCode == http.StatusOK {
			return nil
		}
		time.Sleep(500 * time.Millisecond)
	}
	return errors.New("timed out")
}

// ready is a readiness check: a GET with no body whose status it tests.
func ready(c *http.Client, url string) error {
	resp, err := c.Get(url)
	if err != nil {
		return err
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("status %s", resp.Status)
	}
	return nil
}

// waitChecked polls through the package's readiness check.
func waitChecked(c *http.Client, url string) error {
	deadline := time.Now().Add(30 * time.Second)
	for {
		if err := ready(c, url); err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return errors.New("timed out")
		}
		time.Sleep(time.Second)
	}
}

var db *sql.DB

func ping() error { return db.Ping() }

// waitDB pings through a wrapper of database/sql's Ping.
func waitDB() error {
	var err error
	for i := 0; i < 5; i++ {
		if err = ping(); err == nil {
			return nil
		}
		time.Sleep(5 * time.Second)
	}
	return err
}

// waitConn pings a connection with its context.
func waitConn(ctx context.Context, conn *sql.Conn) error {
	for {
		if conn.PingContext(ctx) == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
}

// postReady sends a POST: work, reported.
func postReady(c *http.Client, url string) error {
	for i := 0; i < 5; i++ {
		req, _ := http.NewRequest(http.MethodPost, url, nil)
		resp, err := c.Do(req)
		if err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(time.Second) // want `retry delay has no jitter`
	}
	return errors.New("failed")
}

// withBody sends a GET that carries a body: reported.
func withBody(c *http.Client, url, q string) error {
	for i := 0; i < 5; i++ {
		req, _ := http.NewRequest(http.MethodGet, url, strings.NewReader(q))
		resp, err := c.Do(req)
		if err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(time.Second) // want `retry delay has no jitter`
	}
	return errors.New("failed")
}

// fetch reads the response: a request for its content, reported.
func fetch(c *http.Client, url string) ([]byte, error) {
	for i := 0; i < 5; i++ {
		resp, err := c.Get(url)
		if err == nil {
			defer resp.Body.Close()
			return io.ReadAll(resp.Body)
		}
		time.Sleep(time.Second) // want `retry delay has no jitter`
	}
	return nil, errors.New("failed")
}

// methodSet builds a GET and then changes its method: reported.
func methodSet(c *http.Client, url string) error {
	for i := 0; i < 5; i++ {
		req, _ := http.NewRequest(http.MethodGet, url, nil)
		req.Method = http.MethodDelete
		resp, err := c.Do(req)
		if err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(time.Second) // want `retry delay has no jitter`
	}
	return errors.New("failed")
}

// pingThenWrite pings and writes in the same attempt: work, reported.
func pingThenWrite(ctx context.Context) error {
	for i := 0; i < 5; i++ {
		if db.PingContext(ctx) == nil {
			if _, err := db.ExecContext(ctx, "INSERT INTO t VALUES (1)"); err == nil {
				return nil
			}
		}
		time.Sleep(time.Second) // want `retry delay has no jitter`
	}
	return errors.New("failed")
}

// kept hands the response out of the attempt: reported.
func kept(c *http.Client, url string) (*http.Response, error) {
	var resp *http.Response
	var err error
	for i := 0; i < 5; i++ {
		resp, err = c.Get(url)
		if err == nil && resp.StatusCode == http.StatusOK {
			break
		}
		time.Sleep(time.Second) // want `retry delay has no jitter`
	}
	return resp, err
}

// readsBody is no readiness check (it reads the body), so a loop
// calling it is reported.
func readsBody(c *http.Client, url string) error {
	resp, err := c.Get(url)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	_, err = io.ReadAll(resp.Body)
	return err
}

func waitRead(c *http.Client, url string) error {
	for i := 0; i < 5; i++ {
		if err := readsBody(c, url); err == nil {
			return nil
		}
		time.Sleep(time.Second) // want `retry delay has no jitter`
	}
	return errors.New("failed")
}

// growingPing pings with a doubling delay and no cap: still reported.
func growingPing() error {
	d := time.Second
	for i := 0; i < 30; i++ {
		if err := ping(); err == nil {
			return nil
		}
		time.Sleep(d) // want `retry delay grows exponentially with no cap`
		d *= 2
	}
	return errors.New("down")
}
