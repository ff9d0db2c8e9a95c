package bgcallers

import (
	"bufio"
	"context"
	"net"
	"net/http"

	"github.com/gorilla/websocket"
)

type peer struct{ c net.Conn }

func (p *peer) send(ctx context.Context, msg string) error {
	if dl, ok := ctx.Deadline(); ok {
		p.c.SetWriteDeadline(dl)
	}
	_, err := p.c.Write([]byte(msg))
	return err
}

type upgrader struct {
	answer func(ctx context.Context, line string) string
}

// ServeHTTP takes the connection over and serves it from a goroutine: the
// request's context ends when ServeHTTP returns, before the goroutine's
// loop has begun.
func (u *upgrader) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		http.Error(w, "no hijack", http.StatusInternalServerError)
		return
	}
	conn, rw, err := hj.Hijack()
	if err != nil {
		return
	}
	go u.serveConn(r.Context(), conn, rw.Reader)
}

// serveConn gives each message a context of its own: the request's is
// over. Not reported.
func (u *upgrader) serveConn(reqCtx context.Context, conn net.Conn, rd *bufio.Reader) {
	defer conn.Close()
	p := &peer{c: conn}
	_ = reqCtx
	for {
		line, err := rd.ReadString('\n')
		if err != nil {
			return
		}
		msgCtx := context.Background()
		if err := p.send(msgCtx, u.answer(msgCtx, line)); err != nil {
			return
		}
	}
}

// streamer serves in a goroutine without taking the connection over: it
// waits for the goroutine, so the request's context lives as long.
type streamer struct{ done chan struct{} }

func (s *streamer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	go s.stream(r.Context(), w)
	<-s.done
}

// stream drops the request's context: reported.
func (s *streamer) stream(reqCtx context.Context, w http.ResponseWriter) {
	defer close(s.done)
	p := &peer{}
	_ = reqCtx
	_ = p.send(context.Background(), "hello") // want `context.Background\(\) drops the deadline and cancellation of reqCtx`
}

type wsServer struct {
	up     websocket.Upgrader
	answer func(ctx context.Context, msg []byte) []byte
}

// ServeHTTP upgrades to a WebSocket, which takes the connection over, and
// serves it from a goroutine.
func (s *wsServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	conn, err := s.up.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	go s.serveWS(r.Context(), conn)
}

// serveWS gives each message a context of its own: not reported.
func (s *wsServer) serveWS(reqCtx context.Context, conn *websocket.Conn) {
	defer conn.Close()
	_ = reqCtx
	for {
		_, msg, err := conn.ReadMessage()
		if err != nil {
			return
		}
		_ = s.answer(context.Background(), msg)
	}
}
