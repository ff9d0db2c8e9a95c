package idempotency_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/resilint/resilint/runtime/internal/assert"
	"github.com/resilint/resilint/runtime/internal/require"

	"github.com/resilint/resilint/runtime/idempotency"
)

func TestNewKey(t *testing.T) {
	seen := make(map[string]bool)
	for range 1000 {
		k := idempotency.NewKey()
		require.Len(t, k, 26)
		require.NoError(t, idempotency.ValidateKey(k))
		for _, c := range k {
			require.True(t, c >= 'A' && c <= 'Z' || c >= '2' && c <= '7', "key %q has %q, outside the base32 alphabet", k, c)
		}
		require.False(t, seen[k], "NewKey repeated %q", k)
		seen[k] = true
	}
}

func TestValidateKey(t *testing.T) {
	for _, k := range []string{"a", "8e03978e-40d5-43e8-bc93-6894a57f9324", `"quoted"`, "~!@#$%^&*()_+{}|:<>?", strings.Repeat("k", 255)} {
		assert.NoError(t, idempotency.ValidateKey(k), "%q", k)
	}
	for k, want := range map[string]string{
		"":                       "the key is empty",
		strings.Repeat("k", 256): "256 bytes long; at most 255",
		"with space":             "byte 4 of the key is 0x20",
		"tab\there":              "byte 3 of the key is 0x09",
		"nul\x00":                "byte 3 of the key is 0x00",
		"del\x7f":                "byte 3 of the key is 0x7f",
		"café":                   "byte 3 of the key is 0xc3",
	} {
		err := idempotency.ValidateKey(k)
		require.Error(t, err, "%q", k)
		assert.True(t, errors.Is(err, idempotency.ErrInvalidKey), "%q: %v", k, err)
		assert.Contains(t, err.Error(), want, "%q", k)
		assert.True(t, strings.HasPrefix(err.Error(), "idempotency: invalid idempotency key: "), err.Error())
	}
}

func TestKeyContext(t *testing.T) {
	ctx := context.Background()
	_, ok := idempotency.KeyFromContext(ctx)
	assert.False(t, ok)

	ctx1, k1 := idempotency.EnsureKey(ctx)
	got, ok := idempotency.KeyFromContext(ctx1)
	require.True(t, ok)
	assert.Equal(t, k1, got)

	// EnsureKey keeps the key it finds: every attempt reuses it.
	ctx2, k2 := idempotency.EnsureKey(ctx1)
	assert.Equal(t, k1, k2)
	assert.Equal(t, ctx1, ctx2)

	child, cancel := context.WithCancel(ctx1)
	defer cancel()
	got, _ = idempotency.KeyFromContext(child)
	assert.Equal(t, k1, got, "a derived context carries the key")

	ctx3 := idempotency.WithKey(ctx1, "order-42")
	got, _ = idempotency.KeyFromContext(ctx3)
	assert.Equal(t, "order-42", got, "WithKey replaces the key")
}
