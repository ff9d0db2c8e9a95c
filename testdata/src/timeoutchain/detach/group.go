package detach

import (
	"context"
	"sync"
)

// A pool of consumers started by sync.WaitGroup.Go: each runs in a
// goroutine of its own and outlives start, whose context bounds only
// the start-up; stop closes the feed and waits for the group.
type consumers struct {
	feed chan string
	wg   sync.WaitGroup
	sink func(ctx context.Context, s string) error
}

func (p *consumers) next(ctx context.Context) (string, bool) {
	select {
	case s, ok := <-p.feed:
		return s, ok
	case <-ctx.Done():
		return "", false
	}
}

// start hands each consumer to the group and returns: the consumers read
// under a context of their own. Not reported.
func (p *consumers) start(ctx context.Context, n int) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	for range n {
		p.wg.Go(func() {
			for {
				s, ok := p.next(context.Background())
				if !ok {
					return
				}
				_ = p.sink(context.Background(), s)
			}
		})
	}
	return nil
}

func (p *consumers) stop() {
	close(p.feed)
	p.wg.Wait()
}

// fanOut waits for the group it started before it returns: the work is
// part of the call, and Background in it drops the caller's deadline.
// Reported.
func (p *consumers) fanOut(ctx context.Context, items []string) {
	var wg sync.WaitGroup
	for _, s := range items {
		wg.Go(func() {
			_ = p.sink(context.Background(), s) // want `context.Background\(\) drops the deadline and cancellation of ctx`
		})
	}
	wg.Wait()
}
