package results

import (
	"context"
	"errors"
	"time"
)

// reply carries the outcome of a query in a field, beside the data: the
// query returns nothing else.
type reply struct {
	Rows []string
	Err  error
}

type db struct{}

func (db) query(ctx context.Context, q string) *reply { return &reply{Err: errors.New("down")} }

// The field's error decides the retry, read into a variable when there
// is a reply.
func (d db) rows(ctx context.Context, q string) ([]string, error) {
	var err error
	for i := 0; i < 3; i++ {
		r := d.query(ctx, q)
		if r != nil {
			err = r.Err
		}
		if err == nil && r != nil {
			return r.Rows, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Second): // want `retry delay has no jitter`
		}
	}
	return nil, err
}

// The field compared directly, by value.
type status struct {
	Done bool
	Err  error
}

func (db) ping(ctx context.Context) status { return status{} }

func (d db) waitUp(ctx context.Context) error {
	var last error
	for attempt := 0; attempt < 5; attempt++ {
		st := d.ping(ctx)
		if st.Err != nil {
			last = st.Err
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(500 * time.Millisecond): // want `retry delay has no jitter`
			}
			continue
		}
		return nil
	}
	return last
}

// The near miss: a failure leaves; the loop goes round after a success
// that is not done yet. A poll, not a retry.
func (d db) untilDone(ctx context.Context) error {
	for {
		st := d.ping(ctx)
		if st.Err != nil {
			return st.Err
		}
		if st.Done {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
}

// twoErrs has two error fields: which one is the outcome is not known.
type twoErrs struct {
	ReadErr, WriteErr error
}

func (db) copyOnce(ctx context.Context) *twoErrs { return &twoErrs{} }

// The near miss: with two error fields the model cannot tell the
// outcome, and stays silent.
func (d db) copyAll(ctx context.Context) error {
	for i := 0; i < 3; i++ {
		r := d.copyOnce(ctx)
		if r.ReadErr == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
	return errors.New("gave up")
}
