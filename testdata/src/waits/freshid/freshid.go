// Package freshid has functions that return an identifier drawn at random
// (FreshIDFact), and near misses.
package freshid

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	mrand "math/rand/v2"
	"time"
)

var source = rand.Reader

func NewID() string { // want NewID:"fresh id"
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

type UUID [16]byte

func newUUID() (UUID, error) { // want newUUID:"fresh id"
	var u UUID
	_, err := source.Read(u[:])
	return u, err
}

func requestID() string { // want requestID:"fresh id"
	return fmt.Sprintf("req-%d-%s", time.Now().UnixNano(), NewID())
}

func token() []byte { return fmt.Appendf(nil, "%x", mrand.Uint64()) } // want token:"fresh id"

// The near misses: a random duration is no identifier (it is a random
// number, RandomFact), and a name made from the clock alone is drawn from
// nothing random.
func jitter(d time.Duration) time.Duration { return mrand.N(d) } // want jitter:"random"

func stamp() string { return time.Now().Format(time.RFC3339Nano) }
