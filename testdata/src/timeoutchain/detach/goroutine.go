package detach

import (
	"context"
	"net/http"
)

type publisher interface {
	Publish(ctx context.Context, topic string, b []byte) error
}

// The context kept in a variable is used only by a goroutine meant to
// outlive the request: detached on purpose.
func order(pub publisher) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		bg := context.Background()
		go func() { _ = pub.Publish(bg, "orders", []byte("order")) }()
		w.WriteHeader(http.StatusAccepted)
	}
}

// The near miss: the same variable also serves the request's own call.
func orderSync(pub publisher) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		bg := context.Background() // want `context.Background\(\) drops the deadline and cancellation of r.Context\(\)`
		go func() { _ = pub.Publish(bg, "audit", []byte("order")) }()
		if err := pub.Publish(bg, "orders", []byte("order")); err != nil {
			w.WriteHeader(http.StatusBadGateway)
			return
		}
		w.WriteHeader(http.StatusAccepted)
	}
}
