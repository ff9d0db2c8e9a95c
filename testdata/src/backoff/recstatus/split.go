package recstatus

import (
	"errors"
	"time"
)

var errTooLarge = errors.New("batch too large")

type batch struct{ msgs []string }

type writeRequest struct {
	batch *batch
	sent  time.Time
}

type batchSender func(*writeRequest) error

// writeSplit halves a batch the server refused as too large and sends each
// half: the request shrinks on every call, a split rather than a resend.
// Not reported.
func writeSplit(send batchSender, req *writeRequest) error {
	err := send(req)
	if err == nil {
		return nil
	}
	msgs := req.batch.msgs
	if !errors.Is(err, errTooLarge) || len(msgs) < 2 {
		return err
	}
	first, last := msgs[:len(msgs)/2], msgs[len(msgs)/2:]
	defer func() { req.batch.msgs = msgs }()
	req.batch.msgs = first
	if err := writeSplit(send, req); err != nil {
		return err
	}
	req.batch.msgs = last
	return writeSplit(send, req)
}

// writeAgain stamps the request and sends the same batch again at once:
// reported.
func writeAgain(send batchSender, req *writeRequest, left int) error {
	err := send(req)
	if err == nil || left <= 0 {
		return err
	}
	req.sent = time.Now()
	return writeAgain(send, req, left-1) // want `recursive retry tries again at once after a failure`
}
