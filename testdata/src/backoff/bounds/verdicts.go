package bounds

import (
	"errors"
	"time"
)

type reply struct {
	Data  []byte
	Err   error
	Again bool
}

func query(key string) (*reply, error) { return nil, errors.New("down") }

// decide says whether to try again, from the reply and the error, and
// returns the error to give up with.
func decide(r *reply, err error) (bool, error) {
	if err != nil {
		return true, err
	}
	return r.Again, r.Err
}

// A retry decided by a returned bool about a result that is no HTTP
// response, the error passed through the decision.
func lookupAgain(key string) ([]byte, error) {
	for i := 0; i < 5; i++ {
		r, err := query(key)
		again, err := decide(r, err)
		if !again {
			if err != nil {
				return nil, err
			}
			return r.Data, nil
		}
		time.Sleep(time.Second) // want `retry delay has no jitter`
	}
	return nil, errors.New("gave up")
}

// describe takes the reply and the error but decides nothing: its bool
// says whether the reply had data.
func describe(r *reply) (bool, error) { return r != nil && len(r.Data) > 0, nil }

// The near miss: a paging read that keeps each reply and goes on while
// there is data is no retry.
func lookupPages(key string) ([][]byte, error) {
	var out [][]byte
	for i := 0; i < 5; i++ {
		r, err := query(key)
		if err != nil {
			return out, err
		}
		more, _ := describe(r)
		if !more {
			return out, nil
		}
		out = append(out, r.Data)
		time.Sleep(time.Second)
	}
	return out, nil
}
