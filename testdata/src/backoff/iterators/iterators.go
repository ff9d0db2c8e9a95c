// Package iterators: a loop inside an iterator hands every outcome, the
// failures too, to the consumer, which decides whether it goes on.
package iterators

import (
	"encoding/json"
	"errors"
	"io"
	"iter"
)

type message struct{ ID string }

// Decoding a stream: the error goes to the consumer with the value.
func messages(dec *json.Decoder) iter.Seq2[message, error] {
	return func(yield func(message, error) bool) {
		for {
			var m message
			err := dec.Decode(&m)
			if errors.Is(err, io.EOF) {
				return
			}
			if !yield(m, err) {
				return
			}
		}
	}
}

// The near miss: the same loop with a classifier instead of a consumer
// goes round on a failure, at once and without end.
func firstGood(dec *json.Decoder, skip func(error) bool) (message, error) {
	for { // want `retry loop has no bound` `retry loop tries again at once after a failure`
		var m message
		err := dec.Decode(&m)
		if err == nil {
			return m, nil
		}
		if !skip(err) {
			return m, err
		}
	}
}
