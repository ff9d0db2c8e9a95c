package resume

import (
	"net"
	"time"
)

// frame is what a server answers a heartbeat with: a supported frame, an
// error frame, or a frame asking the client to hold off.
type frame interface{ Kind() byte }

type supportedFrame struct{}

func (*supportedFrame) Kind() byte { return 1 }

type errorFrame struct{ code int }

func (*errorFrame) Kind() byte    { return 2 }
func (*errorFrame) Error() string { return "error frame" }

type holdFrame struct{}

func (*holdFrame) Kind() byte { return 3 }

type link interface {
	Write() (frame, error)
}

type control struct {
	quit  chan struct{}
	link  link
	hosts []string
}

// reconnect pauses, then dials the first host; it answers nothing.
func (c *control) reconnect() {
	time.Sleep(50 * time.Millisecond)
	conn, err := net.Dial("tcp", c.hosts[0])
	if err == nil {
		conn.Close()
	}
}

// heartBeat asks every 5s; when the answer is an error (the call failed,
// or the server sent an error frame) it reconnects and asks again a
// fixed second later: reported, at the failure's value.
func (c *control) heartBeat() {
	sleep := time.Second
	timer := time.NewTimer(sleep)
	defer timer.Stop()
	for {
		timer.Reset(sleep)
		select {
		case <-c.quit:
			return
		case <-timer.C:
		}
		resp, err := c.link.Write()
		if err != nil {
			goto reconn
		}
		switch resp.(type) {
		case *supportedFrame:
			sleep = 5 * time.Second
			continue
		case error:
			goto reconn
		default:
			panic("unknown frame")
		}
	reconn:
		sleep = time.Second // want `retry delay has no jitter`
		c.reconnect()
	}
}

// heldOff asks again a second later both after a failure and after a
// frame that asks it to hold off, which is no error: its successes wait
// the same second, a poll. Not reported.
func (c *control) heldOff() {
	sleep := time.Second
	timer := time.NewTimer(sleep)
	defer timer.Stop()
	for {
		timer.Reset(sleep)
		select {
		case <-c.quit:
			return
		case <-timer.C:
		}
		resp, err := c.link.Write()
		if err != nil {
			goto reconn
		}
		switch resp.(type) {
		case *supportedFrame:
			sleep = 5 * time.Second
			continue
		case *holdFrame:
			goto reconn
		}
		continue
	reconn:
		sleep = time.Second
		c.reconnect()
	}
}
