package specific

import (
	"context"
	"io"
	"time"

	pkgerrors "github.com/pkg/errors"
)

// CommitPkg picks out the conflict with another package's errors.Is,
// which only forwards to the standard one: the same as CommitEq, not
// reported.
func (s *session) CommitPkg(ctx context.Context) error {
	for i := 0; i < 5; i++ {
		err := s.commit(ctx)
		if !pkgerrors.Is(err, errPending) {
			return err
		}
		time.Sleep(100 * time.Millisecond)
	}
	return errPending
}

// CommitPkgCut goes round, through the same forwarder, on a connection
// cut short: reported, as CommitCut is.
func (s *session) CommitPkgCut(ctx context.Context) error {
	for i := 0; i < 5; i++ {
		err := s.commit(ctx)
		if !pkgerrors.Is(err, io.ErrUnexpectedEOF) {
			return err
		}
		time.Sleep(100 * time.Millisecond) // want `retry delay has no jitter`
	}
	return io.ErrUnexpectedEOF
}
