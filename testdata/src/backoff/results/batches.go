package results

import (
	"errors"
	"time"
)

// ack carries the broker's error beside what it reports.
type ack struct {
	Error    error
	Throttle time.Duration
}

type producer struct{ attempts int }

func (p *producer) maxAttempts() int { return p.attempts }

func (p *producer) produce(batch []string) (*ack, error) { return nil, errors.New("down") }

type partition struct{ p *producer }

func growing(attempt int, min, max time.Duration) time.Duration {
	d := time.Duration(attempt*attempt) * min
	if d > max {
		d = max
	}
	return d
}

func transient(err error) bool { return err != nil }

// The call's error, then the ack's when there is one: either decides
// the retry (a nil test of a result that carries its own error asks
// whether there is one, not how the call went).
func (w *partition) write(batch []string) *ack {
	var res *ack
	var err error
	for attempt, max := 0, w.p.maxAttempts(); attempt < max; attempt++ {
		if attempt != 0 {
			delay := growing(attempt, 100*time.Millisecond, time.Second)
			time.Sleep(delay) // want `retry delay has no jitter`
		}
		res, err = w.p.produce(batch)
		if res != nil {
			err = res.Error
		}
		if err == nil {
			break
		}
		if !transient(err) {
			break
		}
	}
	return res
}
