// Package storetest checks implementations of [idempotency.Store]: the
// semantics the middleware relies on ([Run]), and the guarantee the whole
// package exists for — one execution per key, however many duplicates
// arrive and however they interleave ([RunExactlyOnce]), and none while the
// store is down ([RunOutage]).
//
// Call them from a test of the store:
//
//	func TestStore(t *testing.T) {
//		storetest.Run(t, func(t *testing.T) idempotency.Store { return newStore(t) })
//		storetest.RunExactlyOnce(t, newStore(t))
//	}
package storetest

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/resilint/resilint/runtime/idempotency"
)

// Run checks the Store contract on stores made by newStore, one per
// subtest. It does not check expiry, which needs control of the store's
// clock; test that separately.
func Run(t *testing.T, newStore func(t *testing.T) idempotency.Store) {
	ctx := context.Background()
	const ttl = time.Minute
	id := idempotency.RecordID{Scope: "tenant-1", Key: "key-1"}

	t.Run("ClaimFree", func(t *testing.T) {
		s := newStore(t)
		cur, claimed, err := s.Claim(ctx, id, []byte("first"), ttl)
		if err != nil || !claimed || cur != nil {
			t.Fatalf("Claim on a free key = %q, %v, %v; want nil, true, nil", cur, claimed, err)
		}
		got, ok, err := s.Get(ctx, id)
		if err != nil || !ok || string(got) != "first" {
			t.Fatalf("Get after Claim = %q, %v, %v; want \"first\", true, nil", got, ok, err)
		}
	})

	t.Run("ClaimTaken", func(t *testing.T) {
		s := newStore(t)
		mustClaim(t, s, id, "first")
		cur, claimed, err := s.Claim(ctx, id, []byte("second"), ttl)
		if err != nil || claimed || string(cur) != "first" {
			t.Fatalf("Claim on a taken key = %q, %v, %v; want \"first\", false, nil", cur, claimed, err)
		}
	})

	t.Run("GetAbsent", func(t *testing.T) {
		s := newStore(t)
		got, ok, err := s.Get(ctx, id)
		if err != nil || ok || got != nil {
			t.Fatalf("Get on a free key = %q, %v, %v; want nil, false, nil", got, ok, err)
		}
	})

	t.Run("Replace", func(t *testing.T) {
		s := newStore(t)
		mustClaim(t, s, id, "claim")
		if ok, err := s.Replace(ctx, id, []byte("other"), []byte("done"), ttl); err != nil || ok {
			t.Fatalf("Replace with the wrong old value = %v, %v; want false, nil", ok, err)
		}
		mustGet(t, s, id, "claim")
		if ok, err := s.Replace(ctx, id, []byte("claim"), []byte("done"), ttl); err != nil || !ok {
			t.Fatalf("Replace with the right old value = %v, %v; want true, nil", ok, err)
		}
		mustGet(t, s, id, "done")
		if ok, err := s.Replace(ctx, id, []byte("done"), []byte("done"), ttl); err != nil || !ok {
			t.Fatalf("Replace with the same value (a renewal) = %v, %v; want true, nil", ok, err)
		}
	})

	t.Run("ReplaceAbsent", func(t *testing.T) {
		s := newStore(t)
		if ok, err := s.Replace(ctx, id, []byte("claim"), []byte("done"), ttl); err != nil || ok {
			t.Fatalf("Replace on a free key = %v, %v; want false, nil", ok, err)
		}
		mustAbsent(t, s, id)
	})

	t.Run("Release", func(t *testing.T) {
		s := newStore(t)
		mustClaim(t, s, id, "claim")
		if ok, err := s.Release(ctx, id, []byte("other")); err != nil || ok {
			t.Fatalf("Release with the wrong value = %v, %v; want false, nil", ok, err)
		}
		mustGet(t, s, id, "claim")
		if ok, err := s.Release(ctx, id, []byte("claim")); err != nil || !ok {
			t.Fatalf("Release with the right value = %v, %v; want true, nil", ok, err)
		}
		mustAbsent(t, s, id)
		if ok, err := s.Release(ctx, id, []byte("claim")); err != nil || ok {
			t.Fatalf("Release on a free key = %v, %v; want false, nil", ok, err)
		}
		mustClaim(t, s, id, "again")
	})

	t.Run("BinaryValues", func(t *testing.T) {
		s := newStore(t)
		v := []byte{0, 1, 2, 0xff, '\n', '\r', 0, '{', '}'}
		mustClaim(t, s, id, string(v))
		mustGet(t, s, id, string(v))
		if ok, err := s.Release(ctx, id, v); err != nil || !ok {
			t.Fatalf("Release of a binary value = %v, %v; want true, nil", ok, err)
		}
	})

	t.Run("DoesNotKeepSlices", func(t *testing.T) {
		s := newStore(t)
		v := []byte("claim")
		mustClaim(t, s, id, string(v))
		copy(v, "XXXXX")
		mustGet(t, s, id, "claim")
		d := []byte("done!")
		if ok, err := s.Replace(ctx, id, []byte("claim"), d, ttl); err != nil || !ok {
			t.Fatalf("Replace = %v, %v; want true, nil", ok, err)
		}
		copy(d, "XXXXX")
		mustGet(t, s, id, "done!")
	})

	t.Run("DistinctIDs", func(t *testing.T) {
		// Scopes and keys that a naive "scope:key" join would confuse, and
		// characters that matter to Redis Cluster hash tags.
		ids := []idempotency.RecordID{
			{Scope: "a:b", Key: "c"},
			{Scope: "a", Key: "b:c"},
			{Scope: "", Key: "a:b:c"},
			{Scope: "a:b:c", Key: ""},
			{Scope: "a%3Ab", Key: "c"},
			{Scope: "{a}", Key: "b"},
			{Scope: "a", Key: "}b{"},
			{Scope: "a}", Key: "{b"},
			{Scope: "", Key: "x"},
			{Scope: "x", Key: "x"},
			{Scope: "X", Key: "x"},
			{Scope: "\x00", Key: "x"},
		}
		s := newStore(t)
		for i, id := range ids {
			mustClaim(t, s, id, fmt.Sprint(i))
		}
		for i, id := range ids {
			mustGet(t, s, id, fmt.Sprint(i))
		}
	})

	t.Run("ConcurrentClaims", func(t *testing.T) {
		s := newStore(t)
		const n = 32
		var wg sync.WaitGroup
		type result struct {
			cur     []byte
			claimed bool
			err     error
		}
		results := make([]result, n)
		for i := range n {
			wg.Go(func() {
				cur, claimed, err := s.Claim(ctx, id, fmt.Appendf(nil, "claim-%d", i), ttl)
				results[i] = result{cur, claimed, err}
			})
		}
		wg.Wait()
		winner := -1
		for i, r := range results {
			if r.err != nil {
				t.Fatalf("Claim %d: %v", i, r.err)
			}
			if r.claimed {
				if winner >= 0 {
					t.Fatalf("claims %d and %d both won", winner, i)
				}
				winner = i
			}
		}
		if winner < 0 {
			t.Fatal("no claim won")
		}
		want := fmt.Appendf(nil, "claim-%d", winner)
		for i, r := range results {
			if i != winner && !bytes.Equal(r.cur, want) {
				t.Errorf("claim %d saw %q; want the winner's %q", i, r.cur, want)
			}
		}
		mustGet(t, s, id, string(want))
	})
}

func mustClaim(t *testing.T, s idempotency.Store, id idempotency.RecordID, v string) {
	t.Helper()
	cur, claimed, err := s.Claim(context.Background(), id, []byte(v), time.Minute)
	if err != nil || !claimed {
		t.Fatalf("Claim(%+v) = %q, %v, %v; want a successful claim", id, cur, claimed, err)
	}
}

func mustGet(t *testing.T, s idempotency.Store, id idempotency.RecordID, want string) {
	t.Helper()
	got, ok, err := s.Get(context.Background(), id)
	if err != nil || !ok || string(got) != want {
		t.Fatalf("Get(%+v) = %q, %v, %v; want %q, true, nil", id, got, ok, err, want)
	}
}

func mustAbsent(t *testing.T, s idempotency.Store, id idempotency.RecordID) {
	t.Helper()
	got, ok, err := s.Get(context.Background(), id)
	if err != nil || ok {
		t.Fatalf("Get(%+v) = %q, %v, %v; want no record", id, got, ok, err)
	}
}
