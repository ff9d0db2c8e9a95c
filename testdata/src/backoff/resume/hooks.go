package resume

import "time"

// plan long-polls through a function held in a field and hands each
// result to a handler held in another. The handler may do anything, but
// it is not known to wait: the loop goes on after a success and waits
// only after a failure, a resume loop whose failure wait is a retry
// delay.
type plan struct {
	stop   chan struct{}
	fetch  func() (uint64, error)
	handle func(uint64)
	every  time.Duration
}

func (p *plan) stopped() bool {
	select {
	case <-p.stop:
		return true
	default:
		return false
	}
}

// run waits a capped, growing delay with no random part after a failure:
// reported.
func (p *plan) run() {
	failures := 0
	for !p.stopped() {
		idx, err := p.fetch()
		if err != nil {
			failures++
			wait := 5 * time.Second * time.Duration(failures*failures)
			if wait > 3*time.Minute {
				wait = 3 * time.Minute
			}
			select {
			case <-time.After(wait): // want `retry delay has no jitter`
				continue
			case <-p.stop:
				return
			}
		}
		failures = 0
		if p.handle != nil {
			p.handle(idx)
		}
	}
}

// poll also waits its interval after a success: a poll, whose waits are
// no retry delays. Not reported.
func (p *plan) poll() {
	for !p.stopped() {
		idx, err := p.fetch()
		if err != nil {
			time.Sleep(time.Second)
			continue
		}
		p.handle(idx)
		time.Sleep(p.every)
	}
}

// beacon announces itself every interval and only logs a failure,
// through a sink held in a field: the wait at the top of each pass paces
// success and failure alike, and the sink may wait but is not known to.
// No pass waits surely after a failure: no resume loop, no retry delay.
type beacon struct {
	stop    chan struct{}
	publish func() error
	sink    func(error)
	every   time.Duration
}

func (b *beacon) note(err error) {
	if b.sink != nil {
		b.sink(err)
	}
}

func (b *beacon) run() {
	for {
		select {
		case <-b.stop:
			return
		case <-time.After(b.every):
			if err := b.publish(); err != nil {
				b.note(err)
			}
		}
	}
}
