package idempotency_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilint/resilint/runtime/internal/assert"
	"github.com/resilint/resilint/runtime/internal/require"

	"github.com/resilint/resilint/runtime/idempotency"
	"github.com/resilint/resilint/runtime/idempotency/storetest"
)

func newMemoryStore(t *testing.T) idempotency.Store {
	s, err := idempotency.NewMemoryStore(idempotency.MemoryConfig{})
	require.NoError(t, err)
	return s
}

func TestMemoryStoreContract(t *testing.T) {
	storetest.Run(t, newMemoryStore)
}

func TestMemoryStoreExactlyOnce(t *testing.T) {
	storetest.RunExactlyOnce(t, newMemoryStore(t))
}

func TestMemoryStoreConfig(t *testing.T) {
	_, err := idempotency.NewMemoryStore(idempotency.MemoryConfig{MaxEntries: -1})
	var ce *idempotency.ConfigError
	assert.True(t, errors.As(err, &ce), "%v", err)
	assert.EqualError(t, err, "idempotency: invalid MemoryConfig.MaxEntries -1: must not be negative")
}

func TestMemoryStoreExpiry(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		s, _ := idempotency.NewMemoryStore(idempotency.MemoryConfig{})
		id := idempotency.RecordID{Key: "k"}
		_, claimed, _ := s.Claim(ctx, id, []byte("claim"), time.Second)
		require.True(t, claimed)

		time.Sleep(999 * time.Millisecond)
		_, ok, _ := s.Get(ctx, id)
		assert.True(t, ok, "alive before its TTL")
		// Replace sets a new TTL.
		ok, _ = s.Replace(ctx, id, []byte("claim"), []byte("done"), time.Minute)
		require.True(t, ok)
		time.Sleep(59 * time.Second)
		v, ok, _ := s.Get(ctx, id)
		assert.True(t, ok)
		assert.Equal(t, "done", string(v))

		time.Sleep(time.Second)
		_, ok, _ = s.Get(ctx, id)
		assert.False(t, ok, "gone at its TTL")
		ok, _ = s.Replace(ctx, id, []byte("done"), []byte("x"), time.Minute)
		assert.False(t, ok, "an expired record cannot be replaced")
		_, claimed, _ = s.Claim(ctx, id, []byte("again"), time.Second)
		assert.True(t, claimed, "an expired record's key is free")
		assert.Equal(t, 1, s.Len())
	})
}

func TestMemoryStoreBound(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		s, _ := idempotency.NewMemoryStore(idempotency.MemoryConfig{MaxEntries: 3})
		id := func(i int) idempotency.RecordID { return idempotency.RecordID{Key: fmt.Sprint(i)} }
		for i := range 5 {
			_, claimed, _ := s.Claim(ctx, id(i), []byte("v"), time.Hour)
			require.True(t, claimed)
			time.Sleep(time.Second)
		}
		assert.Equal(t, 3, s.Len())
		for i := range 5 {
			_, ok, _ := s.Get(ctx, id(i))
			assert.Equal(t, i >= 2, ok, "record %d: the oldest go first", i)
		}
		// A replaced record keeps its place: it was claimed when it was.
		ok, _ := s.Replace(ctx, id(2), []byte("v"), []byte("w"), time.Hour)
		require.True(t, ok)
		s.Claim(ctx, id(5), []byte("v"), time.Hour)
		_, ok, _ = s.Get(ctx, id(2))
		assert.False(t, ok)

		// A claim on a taken key does not evict anything.
		_, claimed, _ := s.Claim(ctx, id(5), []byte("v2"), time.Hour)
		assert.False(t, claimed)
		assert.Equal(t, 3, s.Len())
	})
}
