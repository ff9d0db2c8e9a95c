// Package reads reads a header from a buffered connection: a loop that asks
// for more input after an incomplete read follows what it consumed; it does
// not retry a request.
package reads

import (
	"bufio"
	"errors"
)

var errNeedMore = errors.New("need more data")

type header struct{ raw []byte }

func (h *header) tryRead(r *bufio.Reader, n int) error {
	b, err := r.Peek(n)
	if err != nil {
		return err
	}
	for i := 0; i+3 < len(b); i++ {
		if string(b[i:i+4]) == "\r\n\r\n" {
			h.raw = b[:i]
			return nil
		}
	}
	return errNeedMore
}

// Read asks for one byte more than the reader holds after each incomplete
// read: the next pass's input is computed from what the last one left in r.
func (h *header) Read(r *bufio.Reader) error {
	n := 1
	for {
		err := h.tryRead(r, n)
		if err == nil {
			return nil
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			return err // the header outgrew the buffer
		}
		n = r.Buffered() + 1
	}
}

type limits struct{ size int }

func (l *limits) Size() int { return l.size }

// ReadSized asks for a size read from the configuration, not from the
// reader: every pass repeats the same read at once.
func (h *header) ReadSized(r *bufio.Reader, l *limits) error {
	n := 1
	for { // want `loop tries again at once after a failure` `retry loop has no bound`
		err := h.tryRead(r, n)
		if err == nil {
			return nil
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			return err // the header outgrew the buffer
		}
		n = l.Size()
	}
}
