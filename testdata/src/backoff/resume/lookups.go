package resume

import (
	"context"
	"time"
)

// A pull loop that first looks up where to pull from. The lookup says
// found or not with a bool and no error: it is no operation that fails,
// so a pass that finds nothing and waits runs no operation at all. It
// is neither a success that waits (a poll) nor a failure.
type pulled struct {
	next int64
	msgs []string
}

type puller struct {
	done  chan struct{}
	pull  func(ctx context.Context, addr string, seq int64) (*pulled, error)
	route map[string]string
	out   chan string
}

func (p *puller) where(topic string) (string, bool) {
	a, ok := p.route[topic]
	return a, ok
}

// closed reports whether done is closed, without waiting.
func closed(done <-chan struct{}) bool {
	select {
	case <-done:
		return true
	default:
		return false
	}
}

// follow waits the same fixed pause when the route is missing and when
// a pull fails, and goes straight on after a pull: a resume loop whose
// failure wait has no random part. Reported.
func (p *puller) follow(ctx context.Context, topic string, seq int64) {
	for !closed(p.done) {
		addr, ok := p.where(topic)
		if !ok {
			time.Sleep(3 * time.Second) // want `retry delay has no jitter`
			continue
		}
		got, err := p.pull(ctx, addr, seq)
		if err != nil {
			time.Sleep(3 * time.Second)
			continue
		}
		for _, m := range got.msgs {
			p.out <- m
		}
		seq = got.next
	}
}

// skip waits only while the route is missing; a failed pull goes round
// at once (a consumer skipping what it cannot read): no failure waits,
// so no wait is a retry delay. Not reported.
func (p *puller) skip(ctx context.Context, topic string, seq int64) {
	for !closed(p.done) {
		addr, ok := p.where(topic)
		if !ok {
			time.Sleep(3 * time.Second)
			continue
		}
		got, err := p.pull(ctx, addr, seq)
		if err != nil {
			seq++
			continue
		}
		for _, m := range got.msgs {
			p.out <- m
		}
		seq = got.next
	}
}
