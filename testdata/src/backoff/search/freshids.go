package search

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"time"
)

// newSlotID draws a random identifier (waits.FreshIDFact).
func newSlotID() (string, error) {
	b := make([]byte, 12)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

type Tx interface {
	Exec(q string, args ...any) error
}

type Store interface {
	// InTx runs fn in a transaction.
	InTx(ctx context.Context, fn func(Tx) error) error
}

func claimSlot(ctx context.Context, tx Tx, id, owner string) error {
	return tx.Exec("INSERT", id, owner)
}

// registerSlot draws a new identifier in every pass and inserts it, in
// case the last one was taken: each pass asks for another row, a search
// for a free key, not a resend. Not reported.
func registerSlot(ctx context.Context, s Store, owner string) (string, error) {
	var id string
	var err error
	for i := 0; i < 5; i++ {
		id, err = newSlotID()
		if err != nil {
			return "", err
		}
		err = s.InTx(ctx, func(tx Tx) error {
			return claimSlot(ctx, tx, id, owner)
		})
		if err == nil {
			return id, nil
		}
	}
	return "", err
}

func reserveName(ctx context.Context, name string) error { return errors.New("taken") }

// pickName gives the operation a name drawn in the pass. Not reported.
func pickName(ctx context.Context) error {
	for i := 0; i < 3; i++ {
		id, _ := newSlotID()
		if err := reserveName(ctx, "job-"+id); err == nil {
			return nil
		}
	}
	return errors.New("no free name")
}

// pickNamePaced waits a fixed second between its draws: no jitter
// asked of a search. Not reported.
func pickNamePaced(ctx context.Context) error {
	for i := 0; i < 3; i++ {
		id, _ := newSlotID()
		if err := reserveName(ctx, "job-"+id); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("no free name")
}

// The same wait between resends of one name lacks jitter.
func reserveOncePaced(ctx context.Context) error {
	id, _ := newSlotID()
	for i := 0; i < 3; i++ {
		if err := reserveName(ctx, "job-"+id); err == nil {
			return nil
		}
		time.Sleep(time.Second) // want `retry delay has no jitter`
	}
	return errors.New("no free name")
}

type traceKey struct{}

func traceID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func withTrace(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, traceKey{}, id)
}

func fetch(ctx context.Context, path string) error { return errors.New("unavailable") }

// The near misses: a new trace ID in the context makes no new request
// (the same path is asked again at once); an identifier drawn once,
// before the loop, is sent again unchanged.
func fetchTraced(ctx context.Context, path string) error {
	for i := 0; i < 3; i++ { // want `retry loop tries again at once after a failure`
		if err := fetch(withTrace(ctx, traceID()), path); err == nil {
			return nil
		}
	}
	return errors.New("gave up")
}

func reserveOnce(ctx context.Context) error {
	id, _ := newSlotID()
	for i := 0; i < 3; i++ { // want `retry loop tries again at once after a failure`
		if err := reserveName(ctx, "job-"+id); err == nil {
			return nil
		}
	}
	return errors.New("no free name")
}
