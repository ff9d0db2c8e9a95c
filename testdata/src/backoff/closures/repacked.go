package closures

import (
	"bytes"
	"context"
	"errors"
)

var errUnsupported = errors.New("unsupported encoding")

type shipper struct{ spare []byte }

func (s *shipper) post(ctx context.Context, body []byte) error { return errUnsupported }

func compressed(b []byte) bool { return bytes.HasPrefix(b, []byte{0x28, 0xb5}) }

func plain(b []byte) []byte { return b[2:] }

// The block is re-encoded from the one given before the self-call: each
// call gets the input the call before made, recursion over changing
// input, not a resend of the same request.
func (s *shipper) ship(ctx context.Context, block []byte) error {
	err := s.post(ctx, block)
	if err != nil && compressed(block) {
		block = plain(block)
		return s.ship(ctx, block)
	}
	return err
}

// Near misses: a context made from the one given carries the same
// request; a value written from elsewhere is the same on every later
// call; a re-encoded copy that is not what the call passes changes
// nothing sent.
func (s *shipper) shipBounded(ctx context.Context, block []byte) error {
	err := s.post(ctx, block)
	if err != nil {
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(ctx)
		defer cancel()
		return s.shipBounded(ctx, block) // want `has no bound` `tries again at once`
	}
	return err
}

func (s *shipper) shipSpare(ctx context.Context, block []byte) error {
	err := s.post(ctx, block)
	if err != nil {
		block = s.spare
		return s.shipSpare(ctx, block) // want `has no bound` `tries again at once`
	}
	return err
}

func (s *shipper) shipCopy(ctx context.Context, block []byte) error {
	err := s.post(ctx, block)
	if err != nil {
		other := plain(block)
		_ = other
		return s.shipCopy(ctx, block) // want `has no bound` `tries again at once`
	}
	return err
}
