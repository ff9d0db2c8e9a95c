package libs

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	retrygo "github.com/avast/retry-go/v4"
	backoff "github.com/cenkalti/backoff/v4"
	backoff5 "github.com/cenkalti/backoff/v5"
)

// Zones answers which records a zone holds.
type Zones interface {
	Records(ctx context.Context, zone string) ([]string, error)
}

// Reply is an answer that may carry a failure of its own.
type Reply struct {
	Names []string
	Err   error
}

// Jobs answers a job's state.
type Jobs interface {
	State(ctx context.Context, id string) (*Reply, error)
}

var errNotYet = errors.New("not there yet")

type notYetError struct{ name string }

func (e *notYetError) Error() string { return e.name + " not there yet" }

// A propagation poll: every failure of the zone query ends the retry at
// once (Permanent); only "not there yet" goes round. Clients do not meet
// that together when the dependency fails, so the constant pause is not
// asked for jitter.
func waitForRecord(ctx context.Context, z Zones, zone, name string) (string, error) {
	return backoff5.Retry(ctx, func() (string, error) {
		names, err := z.Records(ctx, zone)
		if err != nil {
			return "", backoff5.Permanent(fmt.Errorf("records of %s: %w", zone, err))
		}
		for _, n := range names {
			if n == name {
				return n, nil
			}
		}
		return "", fmt.Errorf("%s: %w", name, errNotYet)
	}, backoff5.WithBackOff(backoff5.NewConstantBackOff(5*time.Second)), backoff5.WithMaxElapsedTime(5*time.Minute))
}

// The same when the go-round wraps the query's error variable: the test
// before it left it nil.
func waitForRecordNilWrapped(ctx context.Context, z Zones, zone, name string) (string, error) {
	return backoff5.Retry(ctx, func() (string, error) {
		names, err := z.Records(ctx, zone)
		if err != nil {
			return "", backoff5.Permanent(err)
		}
		if len(names) == 0 || names[0] != name {
			return "", fmt.Errorf("record %s: %w", name, err)
		}
		return names[0], nil
	}, backoff5.WithBackOff(backoff5.NewConstantBackOff(5*time.Second)), backoff5.WithMaxElapsedTime(5*time.Minute))
}

// Near miss: the error variable is written again, by a second query
// whose failure goes round.
func waitForRecordRequeried(ctx context.Context, z Zones, zone, name string) (string, error) {
	return backoff5.Retry(ctx, func() (string, error) {
		names, err := z.Records(ctx, zone)
		if err != nil {
			return "", backoff5.Permanent(err)
		}
		if len(names) == 0 {
			names, err = z.Records(ctx, "fallback."+zone)
			return "", fmt.Errorf("record %s (%d in the fallback): %w", name, len(names), err)
		}
		return names[0], nil
	}, backoff5.WithBackOff(backoff5.NewConstantBackOff(5*time.Second)), backoff5.WithMaxElapsedTime(5*time.Minute)) // want `backoff.Retry waits without jitter \(backoff5.NewConstantBackOff\)`
}

// The same with v4, the failure tested in the if that makes the call and
// the go-round an error value of the code's own type.
func waitForRecordV4(ctx context.Context, z Zones, zone, name string) error {
	return backoff.Retry(func() error {
		if names, err := z.Records(ctx, zone); err != nil {
			return backoff.Permanent(err)
		} else if len(names) > 0 && names[0] == name {
			return nil
		}
		return &notYetError{name: name}
	}, backoff.WithMaxRetries(backoff.NewConstantBackOff(2*time.Second), 30))
}

// retry-go's marker is read the same way.
func waitForRecordRetryGo(ctx context.Context, z Zones, zone, name string) error {
	return retrygo.Do(func() error {
		names, err := z.Records(ctx, zone)
		if err != nil {
			return retrygo.Unrecoverable(err)
		}
		if len(names) == 0 {
			return errNotYet
		}
		return nil
	}, retrygo.Attempts(20), retrygo.DelayType(retrygo.FixedDelay))
}

// Near miss: one failure of the query goes round (returned plain on a
// path), so an outage is retried on a fixed beat.
func waitForRecordSomeErrors(ctx context.Context, z Zones, zone, name string) (string, error) {
	return backoff5.Retry(ctx, func() (string, error) {
		names, err := z.Records(ctx, zone)
		if errors.Is(err, context.Canceled) {
			return "", backoff5.Permanent(err)
		}
		if err != nil {
			return "", err
		}
		if len(names) == 0 {
			return "", errNotYet
		}
		return names[0], nil
	}, backoff5.WithBackOff(backoff5.NewConstantBackOff(5*time.Second)), backoff5.WithMaxElapsedTime(5*time.Minute)) // want `backoff.Retry waits without jitter \(backoff5.NewConstantBackOff\)`
}

// Near miss: the failure is tested at once but handed on wrapped, not
// Permanent: the retry goes round on it.
func waitForRecordWrapped(ctx context.Context, z Zones, zone, name string) error {
	return backoff.Retry(func() error {
		names, err := z.Records(ctx, zone)
		if err != nil {
			return fmt.Errorf("records: %w", err)
		}
		if len(names) == 0 {
			return errNotYet
		}
		return nil
	}, backoff.WithMaxRetries(backoff.NewConstantBackOff(2*time.Second), 30)) // want `backoff.Retry waits without jitter \(backoff.NewConstantBackOff\)`
}

// Near miss: the send's failure ends the retry, but a 5xx is an answer
// read after it, and the code's own error makes it go round: an outage.
func waitForReady(ctx context.Context, c *http.Client, url string) error {
	return backoff.Retry(func() error {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return backoff.Permanent(err)
		}
		resp, err := c.Do(req)
		if err != nil {
			return backoff.Permanent(err)
		}
		resp.Body.Close()
		if resp.StatusCode >= 500 {
			return errors.New("not ready")
		}
		return nil
	}, backoff.WithMaxRetries(backoff.NewConstantBackOff(2*time.Second), 30)) // want `backoff.Retry waits without jitter \(backoff.NewConstantBackOff\)`
}

// Near miss: the reply carries a failure, handed on: the retry goes round
// on whatever the job's reply says went wrong.
func waitForJob(ctx context.Context, j Jobs, id string) error {
	return backoff.Retry(func() error {
		r, err := j.State(ctx, id)
		if err != nil {
			return backoff.Permanent(err)
		}
		if r.Err != nil {
			return r.Err
		}
		return nil
	}, backoff.WithMaxRetries(backoff.NewConstantBackOff(2*time.Second), 30)) // want `backoff.Retry waits without jitter \(backoff.NewConstantBackOff\)`
}

// Near miss: the operation is a named function, not read here.
func waitForRecordNamed(ctx context.Context) error {
	return backoff.Retry(op, backoff.WithMaxRetries(backoff.NewConstantBackOff(2*time.Second), 30)) // want `backoff.Retry waits without jitter \(backoff.NewConstantBackOff\)`
}

// Answer keeps the status of the HTTP response it was read from.
type Answer struct {
	Status int
	Names  []string
}

func fetchAnswer(ctx context.Context, c *http.Client, url string) (*Answer, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	return &Answer{Status: resp.StatusCode}, nil
}

// Near miss: the answer's status is the response's, and a 5xx read from
// it makes the retry go round: an outage.
func waitForAnswer(ctx context.Context, c *http.Client, url string) error {
	return backoff.Retry(func() error {
		a, err := fetchAnswer(ctx, c, url)
		if err != nil {
			return backoff.Permanent(err)
		}
		if a.Status >= http.StatusInternalServerError {
			return errNotYet
		}
		return nil
	}, backoff.WithMaxRetries(backoff.NewConstantBackOff(2*time.Second), 30)) // want `backoff.Retry waits without jitter \(backoff.NewConstantBackOff\)`
}

// Near miss: an operation that asks nothing and fails with an error of
// its own stands for a dependency the model cannot see.
func standIn(ctx context.Context) (int, error) {
	return backoff5.Retry(ctx, func() (int, error) {
		return 0, errNotYet
	}, backoff5.WithBackOff(backoff5.NewConstantBackOff(5*time.Second)), backoff5.WithMaxTries(3)) // want `backoff.Retry waits without jitter \(backoff5.NewConstantBackOff\)`
}
