// Package checkout is the shop's checkout handler: it charges the card,
// reserves the stock and confirms the order by e-mail.
package checkout

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	retrygo "github.com/avast/retry-go/v4"

	"github.com/resilint/resilint/examples/inventory"
	"github.com/resilint/resilint/examples/notifications"
	"github.com/resilint/resilint/examples/payments"
	"github.com/resilint/resilint/examples/pricing"
)

// maxChargeAttempts bounds the handler's own retry of the charge.
const maxChargeAttempts = 3

// checkoutBudget is how long a checkout may take end to end.
const checkoutBudget = 3 * time.Second

// Handler serves POST /checkout.
type Handler struct {
	Payments      *payments.Client
	Inventory     *inventory.Client
	Notifications *notifications.Client
	Pricing       *pricing.Client
}

type order struct {
	ID     string         `json:"id"`
	Email  string         `json:"email"`
	Amount int64          `json:"amount"`
	Items  map[string]int `json:"items"`
}

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var o order
	if err := json.NewDecoder(r.Body).Decode(&o); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), checkoutBudget)
	defer cancel()
	for sku := range o.Items {
		if _, err := h.quote(ctx, sku); err != nil {
			http.Error(w, "pricing unavailable", http.StatusServiceUnavailable)
			return
		}
	}
	if err := h.chargeWithRetry(ctx, o); err != nil {
		http.Error(w, "payment failed", http.StatusBadGateway)
		return
	}
	if err := h.reserveAll(ctx, o); err != nil {
		http.Error(w, "out of stock", http.StatusConflict)
		return
	}
	if err := h.Confirm(ctx, o); err != nil {
		http.Error(w, "confirmation failed", http.StatusBadGateway)
		return
	}
	w.WriteHeader(http.StatusCreated)
}

// chargeWithRetry retries the charge by hand, but payments.Client already
// retries every request: up to 3 × 4 = 12 charge requests per checkout.
func (h *Handler) chargeWithRetry(ctx context.Context, o order) error {
	var err error
	for attempt := 1; attempt <= maxChargeAttempts; attempt++ {
		err = h.Payments.Charge(ctx, o.ID, o.Amount)
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(attempt) * 200 * time.Millisecond):
		}
	}
	return err
}

// reserveAll reserves each item (ranging over items is not a retry), but
// wraps each reservation, which retries with backoff, in retry-go's default
// of 10 attempts: up to 50 reservation requests per item.
func (h *Handler) reserveAll(ctx context.Context, o order) error {
	for sku, qty := range o.Items {
		err := retrygo.Do(func() error {
			return h.Inventory.Reserve(ctx, sku, qty)
		}, retrygo.Context(ctx))
		if err != nil {
			return err
		}
	}
	return nil
}

// Confirm retries a step whose every attempt charges, reserves and
// e-mails again, each of which retries by itself.
func (h *Handler) Confirm(ctx context.Context, o order) error {
	var lastErr error
	for i := 0; i < 2; i++ {
		err := errors.Join(
			h.Payments.Charge(ctx, o.ID, 0),
			h.Inventory.Reserve(ctx, "confirmation-slip", 1),
			h.Notifications.OrderConfirmed(context.Background(), o.Email, o.ID),
		)
		if err == nil {
			return nil
		}
		lastErr = err
	}
	return lastErr
}

// quote retries the pricing call, which goes through a circuit breaker:
// while the breaker is open every attempt fails at once, and while it is
// closed each failed checkout counts three times towards opening it.
func (h *Handler) quote(ctx context.Context, sku string) (int64, error) {
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		cents, err := h.Pricing.Quote(ctx, sku)
		if err == nil {
			return cents, nil
		}
		lastErr = err
		select {
		case <-ctx.Done():
			return 0, ctx.Err()
		case <-time.After(retryDelay(attempt)):
		}
	}
	return 0, lastErr
}

func retryDelay(attempt int) time.Duration {
	return time.Duration(100*(attempt+1)) * time.Millisecond
}
