package specific

import (
	"context"
	"io"
	"time"
)

// sameError compares two errors by identity, then by text: an equality
// of errors, read as errors.Is.
func sameError(a, b error) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil {
		return false
	}
	return a.Error() == b.Error()
}

// CommitSame waits a fixed pause only when the commit is still
// pending, as sameError tells: a failure of this request's own state,
// which clients do not reach together. Not reported, as CommitEq.
func (s *session) CommitSame(ctx context.Context) error {
	for i := 0; i < 5; i++ {
		err := s.commit(ctx)
		if !sameError(err, errPending) {
			return err
		}
		time.Sleep(100 * time.Millisecond)
	}
	return errPending
}

// CommitSameCut goes round, through the same equality, on a connection
// cut short, an outage's failure: reported, as CommitCut is.
func (s *session) CommitSameCut(ctx context.Context) error {
	for i := 0; i < 5; i++ {
		err := s.commit(ctx)
		if !sameError(err, io.ErrUnexpectedEOF) {
			return err
		}
		time.Sleep(100 * time.Millisecond) // want `retry delay has no jitter`
	}
	return io.ErrUnexpectedEOF
}
