package idempotency

import (
	"context"
	"time"
)

// RecordID names one idempotency record: a key within a scope.
type RecordID struct {
	// Scope is the client or tenant the key belongs to (see Config.Scope):
	// the same key in two scopes names two records.
	Scope string
	// Key is the idempotency key as the client sent it.
	Key string
}

// A Store keeps idempotency records for the middleware, typically shared by
// every instance of a service (see the redisstore package) or local to one
// process ([MemoryStore]).
//
// A record is an opaque value with a time to live; the middleware encodes
// its state (claimed or completed), the request's fingerprint and the
// response in it. Every change is conditional on the current value, so
// that two instances cannot both win a claim, and an instance whose claim
// expired and was taken over cannot overwrite or delete the new owner's
// record. Values written by one claim are unique (they hold a random
// token), so comparing values is comparing owners.
//
// Implementations must be safe for concurrent use. They must not keep the
// slices passed to them, and callers must not modify the slices returned.
// An error means the store could not decide (it is unreachable, say): the
// middleware then answers 503 and does not run the handler.
type Store interface {
	// Claim stores value under id, to expire after ttl, if id holds no
	// record (or only an expired one), and returns claimed = true. If id
	// holds a record, Claim leaves it alone and returns its value with
	// claimed = false. The check and the write are one atomic step.
	Claim(ctx context.Context, id RecordID, value []byte, ttl time.Duration) (current []byte, claimed bool, err error)

	// Replace sets id to value, to expire after ttl, if and only if it
	// holds old, and reports whether it did. The middleware completes a
	// claim with it (old is the claim, value the response) and renews a
	// claim's lease (value is old).
	Replace(ctx context.Context, id RecordID, old, value []byte, ttl time.Duration) (bool, error)

	// Release deletes id if and only if it holds old, and reports whether
	// it did.
	Release(ctx context.Context, id RecordID, old []byte) (bool, error)

	// Get returns the value id holds, if any.
	Get(ctx context.Context, id RecordID) (value []byte, ok bool, err error)
}
