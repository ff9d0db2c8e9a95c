package reads

import (
	"context"
	"io"
	"time"
)

type session struct{}

func (s *session) Abort()                             {}
func (s *session) WriteTo(w io.Writer) (int64, error) { return 0, nil }

type dialer struct {
	open func(ctx context.Context) (*session, error)
}

// reconnect releases what a failed open handed back (next.Abort()) and
// goes round: that keeps no data of it, the loop is a retry. Reported.
func (d *dialer) reconnect(ctx context.Context) *session {
	for i := 0; i < 5; i++ {
		next, err := d.open(ctx)
		if err != nil {
			if next != nil {
				next.Abort()
			}
			time.Sleep(time.Second) // want `retry delay has no jitter`
			continue
		}
		return next
	}
	return nil
}

// salvage writes out what a failed open handed back before it goes round:
// data of a partial result kept, no retry of the same work. Not reported.
func (d *dialer) salvage(ctx context.Context, w io.Writer) *session {
	for i := 0; i < 5; i++ {
		next, err := d.open(ctx)
		if err != nil {
			if next != nil {
				next.WriteTo(w)
			}
			time.Sleep(time.Second)
			continue
		}
		return next
	}
	return nil
}
