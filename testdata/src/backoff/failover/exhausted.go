package failover

import (
	"context"
	"sync"
)

// hostPool hands out the servers not marked down, "" once every one is.
type hostPool struct {
	mu    sync.Mutex
	addrs []string
	down  map[string]bool
}

func (p *hostPool) pick() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, a := range p.addrs {
		if !p.down[a] {
			return a
		}
	}
	return ""
}

func (p *hostPool) markDown(addr string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down[addr] = true
}

func fetchVia(ctx context.Context, url string) (string, error) { return "", query(ctx, url) }

// fetchAny asks a server the hostPool picks, reports each failed one back,
// and gives up when the hostPool has none left: a fail-over over a hostPool
// that runs out. Not reported.
func fetchAny(ctx context.Context, p *hostPool, path string) (string, error) {
	var err error
	for {
		addr := p.pick()
		if addr == "" {
			return "", err
		}
		url := addr + path
		var body string
		body, err = fetchVia(ctx, url)
		if err == nil {
			return body, nil
		}
		p.markDown(addr)
	}
}

// fetchPicked never reports a failed server back: the hostPool hands out
// the same one for ever. Reported.
func fetchPicked(ctx context.Context, p *hostPool, path string) (string, error) {
	var err error
	for { // want `retry loop tries again at once` `retry loop has no bound`
		addr := p.pick()
		if addr == "" {
			return "", err
		}
		var body string
		body, err = fetchVia(ctx, addr+path)
		if err == nil {
			return body, nil
		}
	}
}
