package timers

import (
	"bytes"
	"context"
	"math/rand"
	"net/http"
	"time"
)

type jittered struct{ cur, max time.Duration }

func (j *jittered) next() time.Duration {
	if j.cur == 0 {
		j.cur = 100 * time.Millisecond
	}
	d := time.Duration(1 + rand.Int63n(int64(j.cur)))
	j.cur *= 2
	if j.cur > j.max {
		j.cur = j.max
	}
	return d
}

type uploader struct {
	hc       *http.Client
	url      string
	chunks   [][]byte
	idx      int
	deadline time.Duration
}

func (u *uploader) sendChunk(ctx context.Context) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, u.url, bytes.NewReader(u.chunks[u.idx]))
	if err != nil {
		return nil, err
	}
	return u.hc.Do(req)
}

func retryable(status int, err error) bool {
	return err != nil || status == http.StatusTooManyRequests || status >= 500
}

func incomplete(resp *http.Response) bool {
	return resp != nil && resp.StatusCode == http.StatusPermanentRedirect
}

// Upload gives each chunk a deadline for all its attempts: the timer
// made for the chunk is only received in a case that gives up and
// returns, so it is no wait between attempts; the wait is the jittered
// pause.
func (u *uploader) Upload(ctx context.Context) (*http.Response, error) {
	var resp *http.Response
	var err error
	for {
		var wait time.Duration
		bo := &jittered{max: 30 * time.Second}
		giveUp := time.NewTimer(u.deadline) // per-chunk deadline, not a wait

		for {
			pause := time.NewTimer(wait)
			select {
			case <-ctx.Done():
				giveUp.Stop()
				pause.Stop()
				return nil, ctx.Err()
			case <-pause.C:
			case <-giveUp.C:
				pause.Stop()
				return resp, err
			}

			resp, err = u.sendChunk(ctx)
			status := 0
			if resp != nil {
				status = resp.StatusCode
			}
			if !retryable(status, err) {
				giveUp.Stop()
				break
			}
			wait = bo.next()
			if resp != nil {
				resp.Body.Close()
			}
		}

		if incomplete(resp) {
			resp.Body.Close()
			u.idx++
			continue
		}
		return resp, err
	}
}

// Poll's timer is received in a case that goes on to the next attempt:
// it is the wait between attempts, fixed.
func (u *uploader) Poll(ctx context.Context, req *http.Request) (*http.Response, error) {
	for {
		resp, err := u.hc.Do(req)
		if err == nil {
			return resp, nil
		}
		t := time.NewTimer(u.deadline) // want `retry delay has no jitter`
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
		}
	}
}
