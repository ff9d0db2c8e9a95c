package idempotency

import (
	"bufio"
	"bytes"
	"errors"
	"net"
	"net/http"
)

// recorder passes a response through to the client and keeps a copy of it,
// up to a limit, for replay.
type recorder struct {
	w        http.ResponseWriter
	limit    int
	status   int         // the final status, once written
	header   http.Header // the header as it was when the status was written
	body     bytes.Buffer
	tooLarge bool
}

var errHijack = errors.New("idempotency: a handler under the idempotency middleware cannot hijack the connection (its response could not be stored)")

func (rec *recorder) Header() http.Header { return rec.w.Header() }

func (rec *recorder) WriteHeader(code int) {
	rec.w.WriteHeader(code) // panics on an invalid code, before we record it
	if rec.status == 0 && code >= 200 {
		rec.status = code
		rec.header = rec.w.Header().Clone()
	}
}

func (rec *recorder) Write(p []byte) (int, error) {
	if rec.status == 0 {
		rec.WriteHeader(http.StatusOK)
	}
	// Keep what the handler wrote, whether or not the client got it.
	if !rec.tooLarge {
		if rec.body.Len()+len(p) > rec.limit {
			rec.tooLarge = true
			rec.body = bytes.Buffer{}
		} else {
			rec.body.Write(p)
		}
	}
	return rec.w.Write(p)
}

// result returns the status and header the client got.
func (rec *recorder) result() (int, http.Header) {
	if rec.status == 0 {
		// Nothing written: net/http sends 200 and the header as it is now.
		return http.StatusOK, rec.w.Header().Clone()
	}
	return rec.status, rec.header
}

// Flush implements http.Flusher.
func (rec *recorder) Flush() { rec.FlushError() }

// FlushError flushes the underlying writer; http.ResponseController uses it.
func (rec *recorder) FlushError() error {
	if rec.status == 0 {
		rec.WriteHeader(http.StatusOK)
	}
	return http.NewResponseController(rec.w).Flush()
}

// Hijack refuses: a hijacked connection's response cannot be recorded.
func (rec *recorder) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	return nil, nil, errHijack
}

// Unwrap lets http.ResponseController reach the underlying writer for
// deadlines and full duplex.
func (rec *recorder) Unwrap() http.ResponseWriter { return rec.w }
