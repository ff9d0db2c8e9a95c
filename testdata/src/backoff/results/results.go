// Package results: an operation's outcome can travel in its other result
// (`if res != nil { err = res.Error }`), and a number read from that
// result for metrics is not a partial result kept.
package results

import (
	"errors"
	"io"
	"time"
)

type result struct {
	Error    error
	Throttle time.Duration
	Offset   int64
}

type stats struct{ waits, offsets []int64 }

func (s *stats) observe(v int64) { s.waits = append(s.waits, v) }

type writer struct{ stats stats }

func (w *writer) produce() (*result, error) { return nil, errors.New("down") }

func temporary(err error) bool { return true }

// The error in the result decides the retry; the throttle time read from
// it goes to the metrics.
func (w *writer) write() error {
	var res *result
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if attempt != 0 {
			time.Sleep(time.Duration(attempt*attempt) * 100 * time.Millisecond) // want `retry delay has no jitter`
		}
		res, err = w.produce()
		if res != nil {
			err = res.Error
			w.stats.observe(int64(res.Throttle))
		}
		if err == nil {
			break
		}
		if !temporary(err) {
			break
		}
	}
	return err
}

// The near miss: data read before the error check is kept, so the loop
// reads on with partial results; it does not retry.
func readAll(r io.Reader) ([]byte, error) {
	var out []byte
	buf := make([]byte, 512)
	for {
		n, err := r.Read(buf)
		out = append(out, buf[:n]...)
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			time.Sleep(time.Second)
		}
	}
}

var errBusy = errors.New("busy")

type batches struct{}

func (batches) next() ([]byte, error) { return nil, io.EOF }

// A switch that tests for success first: on the end-of-batch branch the
// loop fetches the next batch, it does not retry a failure.
func firstDocument(b batches) ([]byte, error) {
	for {
		doc, err := b.next()
		switch {
		case err == nil:
			return doc, nil
		case errors.Is(err, io.EOF):
		default:
			return nil, err
		}
	}
}

// The near miss: going round on any other error, at once, is a retry.
func firstDocumentBusy(b batches) ([]byte, error) {
	for i := 0; i < 3; i++ { // want `retry loop tries again at once after a failure`
		doc, err := b.next()
		switch {
		case err == nil:
			return doc, nil
		case errors.Is(err, errBusy):
			return nil, err
		}
	}
	return nil, errBusy
}
