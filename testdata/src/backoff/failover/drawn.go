package failover

import (
	"context"

	"backoff/failover/draw"
)

type resolver struct{ servers []string }

func (r *resolver) ask(ctx context.Context, server, q string) (string, error) {
	return "", query(ctx, server+q)
}

// resolveDrawn asks the servers in a random order, each once: the
// element a pass takes is given to a variable declared before the loop
// and handed to the attempt as an argument. A fail-over bounded by the
// drawing: not reported.
func (r *resolver) resolveDrawn(ctx context.Context, q string) (ans, server string, err error) {
	bag := draw.New(len(r.servers))
	for i, ok := bag.Next(); ok; i, ok = bag.Next() {
		server = r.servers[i]
		ans, err = r.ask(ctx, server, q)
		if err == nil {
			return ans, server, nil
		}
	}
	return "", "", err
}

// resolvePinned turns a ring only to pace its passes: the server was
// picked once, before the loop, and every pass asks it again, for ever.
// Reported.
func (r *resolver) resolvePinned(ctx context.Context, q string) (ans, server string, err error) {
	ring := &draw.Ring{}
	server = r.servers[0]
	for _, ok := ring.Next(); ok; _, ok = ring.Next() { // want `retry loop has no bound` `retry loop tries again at once after a failure`
		ans, err = r.ask(ctx, server, q)
		if err == nil {
			return ans, server, nil
		}
	}
	return "", "", err
}
