package verdicts

import (
	"bytes"
	"context"
	"net/http"
	"time"
)

type flusher struct {
	hc      *http.Client
	url     string
	buf     []byte
	timeout time.Duration
}

// sendOnce sends the buffer once and says whether to try again.
func (f *flusher) sendOnce(ctx context.Context) (bool, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, f.url, bytes.NewReader(f.buf))
	if err != nil {
		return false, err
	}
	resp, err := f.hc.Do(req)
	if err != nil {
		return true, err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 500 {
		return true, err
	}
	return false, nil
}

// Flush makes its first attempt before the loop, and the loop waits
// before each further one: a retry whose delay doubles with no random
// part, reported.
func (f *flusher) Flush(ctx context.Context) error {
	again, err := f.sendOnce(ctx)
	if !again {
		return err
	}
	start := time.Now()
	wait := 10 * time.Millisecond
	for err != nil {
		if time.Since(start) > f.timeout {
			return err
		}
		time.Sleep(wait) // want `retry delay has no jitter`
		again, err = f.sendOnce(ctx)
		if !again {
			return err
		}
		wait *= 2
		if wait > time.Second {
			wait = time.Second
		}
	}
	return nil
}

// The near miss: the wait comes only in a branch, so a pass may go on
// to the next call at once: an iterator's "more", not judged.
func (f *flusher) FlushSometimes(ctx context.Context, slow bool) error {
	again, err := f.sendOnce(ctx)
	if !again {
		return err
	}
	for err != nil {
		if slow {
			time.Sleep(time.Second)
		}
		again, err = f.sendOnce(ctx)
		if !again {
			return err
		}
	}
	return nil
}
