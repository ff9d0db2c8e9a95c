package lsp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
)

// The base protocol of LSP: JSON-RPC 2.0 messages, each preceded by a
// header block of "Name: value" lines (Content-Length is the one that
// matters) and an empty line, all lines ending in "\r\n".

// JSON-RPC error codes used by the server.
const (
	codeParseError           = -32700
	codeInvalidRequest       = -32600
	codeMethodNotFound       = -32601
	codeInvalidParams        = -32602
	codeInternalError        = -32603
	codeServerNotInitialized = -32002
)

// maxMessage bounds the body of one message: a client that announces more
// is answered with a parse error rather than allowed to exhaust memory.
const maxMessage = 256 << 20

// message is any JSON-RPC message: a request (ID and Method), a
// notification (Method only) or a response (ID and Result or Error).
type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

func (m *message) isResponse() bool { return m.Method == "" && m.ID != nil }

// rpcError is the error object of a response.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *rpcError) Error() string { return fmt.Sprintf("jsonrpc error %d: %s", e.Code, e.Message) }

// errFraming reports a header block the reader could not use; the stream
// goes on with the next header block.
type errFraming struct{ msg string }

func (e *errFraming) Error() string { return "bad message header: " + e.msg }

// reader reads framed messages from a stream.
type reader struct {
	r *bufio.Reader
}

func newReader(r io.Reader) *reader { return &reader{r: bufio.NewReader(r)} }

// read returns the body of the next message. An *errFraming error means
// the header was unusable and the caller may go on reading; io.EOF (or
// io.ErrUnexpectedEOF) means the stream has ended.
func (rd *reader) read() ([]byte, error) {
	length := -1
	var bad string
	sawHeader := false
	for {
		line, err := rd.r.ReadString('\n')
		if err != nil {
			if err == io.EOF && (sawHeader || line != "") {
				return nil, io.ErrUnexpectedEOF
			}
			return nil, err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			if !sawHeader {
				continue // stray blank lines between messages
			}
			break
		}
		sawHeader = true
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			bad = fmt.Sprintf("header line %q has no colon", line)
			continue
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.Atoi(strings.TrimSpace(value))
			if err != nil || n < 0 {
				bad = fmt.Sprintf("Content-Length %q is not a length", strings.TrimSpace(value))
				continue
			}
			length = n
		}
	}
	if bad != "" && length < 0 {
		return nil, &errFraming{bad}
	}
	if length < 0 {
		return nil, &errFraming{"no Content-Length"}
	}
	if length > maxMessage {
		// Skip the body so that the next message can be read.
		if _, err := io.CopyN(io.Discard, rd.r, int64(length)); err != nil {
			return nil, io.ErrUnexpectedEOF
		}
		return nil, &errFraming{fmt.Sprintf("Content-Length %d is over the limit of %d bytes", length, maxMessage)}
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(rd.r, body); err != nil {
		return nil, io.ErrUnexpectedEOF
	}
	return body, nil
}

// writer writes framed messages; it is safe for concurrent use.
type writer struct {
	mu sync.Mutex
	w  io.Writer
}

func (wr *writer) write(m *message) error {
	m.JSONRPC = "2.0"
	body, err := json.Marshal(m)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "Content-Length: %d\r\n\r\n", len(body))
	buf.Write(body)
	wr.mu.Lock()
	defer wr.mu.Unlock()
	_, err = wr.w.Write(buf.Bytes())
	return err
}

// decodeMessage parses a body into a message and checks the shape of a
// JSON-RPC 2.0 message.
func decodeMessage(body []byte) (*message, *rpcError) {
	var m message
	if err := json.Unmarshal(body, &m); err != nil {
		var id struct {
			ID json.RawMessage `json:"id"`
		}
		if json.Unmarshal(body, &id) == nil && id.ID != nil {
			m.ID = id.ID
			return &m, &rpcError{codeInvalidRequest, "invalid request: " + err.Error()}
		}
		return nil, &rpcError{codeParseError, "parse error: " + err.Error()}
	}
	if m.JSONRPC != "2.0" {
		return &m, &rpcError{codeInvalidRequest, fmt.Sprintf("invalid request: jsonrpc is %q, want \"2.0\"", m.JSONRPC)}
	}
	if m.ID != nil {
		var v any
		if err := json.Unmarshal(m.ID, &v); err != nil {
			return &m, &rpcError{codeInvalidRequest, "invalid request: bad id"}
		}
		switch v.(type) {
		case string, float64, nil:
		default:
			m.ID = nil
			return &m, &rpcError{codeInvalidRequest, "invalid request: id must be a string or a number"}
		}
	}
	if m.Method == "" && m.ID == nil {
		return &m, &rpcError{codeInvalidRequest, "invalid request: no method"}
	}
	return &m, nil
}

var errClosed = errors.New("connection closed")
