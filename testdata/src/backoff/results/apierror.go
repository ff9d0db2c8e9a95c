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
