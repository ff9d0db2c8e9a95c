// Command shop runs the example checkout service.
package main

import (
	"log"
	"net/http"
	"time"

	"github.com/gomodule/redigo/redis"

	"github.com/resilint/resilint/examples/checkout"
	"github.com/resilint/resilint/examples/inventory"
	"github.com/resilint/resilint/examples/limiter"
	"github.com/resilint/resilint/examples/notifications"
	"github.com/resilint/resilint/examples/payments"
	"github.com/resilint/resilint/examples/pricing"
)

func main() {
	client := &http.Client{Timeout: 2 * time.Second}
	pc, err := pricing.New("http://pricing.internal", client)
	if err != nil {
		log.Fatal(err)
	}
	h := &checkout.Handler{
		Pricing:       pc,
		Payments:      payments.New("http://payments.internal"),
		Inventory:     &inventory.Client{Base: "http://inventory.internal", HTTP: client},
		Notifications: &notifications.Client{Relay: "http://mail.internal", HTTP: client},
	}
	lim := &limiter.Limiter{Redis: &redis.Pool{Dial: func() (redis.Conn, error) { return redis.Dial("tcp", "redis.internal:6379") }}}
	srv := &http.Server{Addr: ":8080", Handler: lim.Wrap(h), ReadHeaderTimeout: 5 * time.Second}
	log.Fatal(srv.ListenAndServe())
}
