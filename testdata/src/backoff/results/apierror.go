package results

import (
	"context"
	"fmt"
	"time"
)

// apiError is what the API reports inside an answer it sent.
type apiError struct{ Code int }

func (e *apiError) Error() string { return fmt.Sprintf("api error %d", e.Code) }

// answer embeds the API's error beside the data: the call succeeds (the
// answer came) and the API may still report a failure in it.
type answer struct {
	*apiError
	Data string
	Done bool
}

type apiClient struct{}

func (apiClient) call(ctx context.Context) (*answer, error) { return &answer{}, nil }

// The success test wants both: no error, and no error in the answer.
// An answer that reports one is a failure, and the pass goes round.
func (a apiClient) get(ctx context.Context) (string, error) {
	var err error
	for i := 0; i < 4; i++ {
		var res *answer
		res, err = a.call(ctx)
		if err == nil && (res.apiError == nil || res.Code == 0) {
			return res.Data, nil
		}
		if err == nil {
			err = res.apiError
		}
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(time.Second): // want `retry delay has no jitter`
		}
	}
	return "", err
}

// Near miss: a failure in the answer ends the loop; only "not done yet"
// goes round, a poll.
func (a apiClient) wait(ctx context.Context) error {
	for i := 0; i < 10; i++ {
		res, err := a.call(ctx)
		if err != nil {
			return err
		}
		if res.apiError != nil {
			return res.apiError
		}
		if res.Done {
			return nil
		}
		time.Sleep(time.Second)
	}
	return nil
}

// kerror is an error code: a number whose zero means no error.
type kerror int16

func (k kerror) Error() string { return fmt.Sprintf("code %d", int(k)) }

const (
	noError     kerror = 0
	notLeader   kerror = 6
	rebalancing kerror = 27
)

type beat struct{ Err kerror }

func (apiClient) heartbeat(ctx context.Context) (*beat, error) { return &beat{}, nil }

func (apiClient) leader(ctx context.Context) (string, error) { return "", nil }

// Near miss: a heartbeat goes round after every answer, "no error"
// included; the code in the answer is compared with codes, not an
// outcome that is there or not. No retry, though failures to find the
// leader or to send are tried again a few times.
func (a apiClient) keepAlive(ctx context.Context, every time.Duration) error {
	retries := 3
	for {
		if _, err := a.leader(ctx); err != nil {
			if retries <= 0 {
				return err
			}
			retries--
			time.Sleep(100 * time.Millisecond)
			continue
		}
		res, err := a.heartbeat(ctx)
		if err != nil {
			if retries <= 0 {
				return err
			}
			retries--
			continue
		}
		switch err := res.Err; err {
		case noError, rebalancing:
			retries = 3
		case notLeader:
			if retries <= 0 {
				return err
			}
			retries--
			time.Sleep(100 * time.Millisecond)
			continue
		default:
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(every):
		}
	}
}
