package hostlocal

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"time"

	"github.com/vishvananda/netlink"
)

// retryOnIntr runs f again while the kernel reports an interrupted dump:
// it runs the function it is given, so it is local where that function
// is.
func retryOnIntr(f func() error) {
	for i := 0; i < 5; i++ {
		if err := f(); !errors.Is(err, netlink.ErrDumpInterrupted) {
			return
		}
	}
}

// linkByName asks this host's kernel for a link, through retryOnIntr
// given a function literal.
func linkByName(name string) (netlink.Link, error) {
	var l netlink.Link
	var err error
	retryOnIntr(func() error {
		l, err = netlink.LinkByName(name)
		return err
	})
	return l, err
}

// WaitLink polls the kernel until the link shows up, doubling to a cap:
// a netlink socket reaches only this host. Not reported.
func WaitLink(ctx context.Context, name string) (netlink.Link, error) {
	d := 100 * time.Millisecond
	for {
		l, err := linkByName(name)
		if err == nil {
			return l, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(d):
			if d < 5*time.Second {
				d *= 2
			}
		}
	}
}

var mu sync.Mutex

// guarded runs f under the package's lock and returns its error.
func guarded(f func() error) error {
	mu.Lock()
	defer mu.Unlock()
	return f()
}

// WaitLocked asks the kernel under the lock, given a function literal.
// Not reported.
func WaitLocked(name string) error {
	var err error
	for i := 0; i < 10; i++ {
		if err = guarded(func() error {
			_, err := netlink.LinkByName(name)
			return err
		}); err == nil {
			return nil
		}
		time.Sleep(500 * time.Millisecond)
	}
	return err
}

type prober struct {
	link string
	c    *http.Client
	url  string
	hook func() error
}

func (p *prober) check() error {
	resp, err := p.c.Get(p.url)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var b [1]byte
	_, err = resp.Body.Read(b[:])
	return err
}

// The near misses: the link is this host's, but guarded given a method
// that sends a request, or a function held in a field, reaches beyond
// this host.
func (p *prober) WaitRemote() error {
	var err error
	for i := 0; i < 5; i++ {
		if _, err = netlink.LinkByName(p.link); err == nil {
			if err = guarded(p.check); err == nil {
				return nil
			}
		}
		time.Sleep(time.Second) // want `retry delay has no jitter`
	}
	return err
}

func (p *prober) WaitHook() error {
	var err error
	for i := 0; i < 5; i++ {
		if _, err = netlink.LinkByName(p.link); err == nil {
			if err = guarded(p.hook); err == nil {
				return nil
			}
		}
		time.Sleep(time.Second) // want `retry delay has no jitter`
	}
	return err
}
