package results

import (
	"context"
	"time"
)

// outcome holds what one call gave, data and error side by side.
type outcome struct {
	Rows []string
	Err  error
}

// The results are stored into the fields of a result declared before
// the loop (`o.Rows, o.Err = ...`): its error field decides the retry,
// and writing a field uses nothing of the failed pass.
func (d db) fetch(ctx context.Context, q string) outcome {
	var o outcome
	for i := 0; i < 3; i++ {
		o.Rows, o.Err = d.list(ctx, q)
		if o.Err == nil {
			return o
		}
		time.Sleep(time.Second) // want `retry delay has no jitter`
	}
	return o
}

func (db) list(ctx context.Context, q string) ([]string, error) { return nil, nil }

// Near miss: each pass appends the rows it got to what the earlier
// passes got, whatever the error: a read that keeps its progress.
func (d db) collect(ctx context.Context, q string) outcome {
	var o outcome
	for i := 0; i < 3; i++ {
		var rows []string
		rows, o.Err = d.list(ctx, q)
		o.Rows = append(o.Rows, rows...)
		if o.Err == nil {
			return o
		}
		time.Sleep(time.Second)
	}
	return o
}
