package facts

import (
	"net"
	"net/http"

	"github.com/gorilla/websocket"
)

// takeOver takes the connection over itself.
func takeOver(w http.ResponseWriter) (net.Conn, error) { // want takeOver:"hijacks"
	hj, ok := w.(http.Hijacker)
	if !ok {
		return nil, http.ErrNotSupported
	}
	c, _, err := hj.Hijack()
	return c, err
}

// upgrade takes it over through a WebSocket upgrader of another package.
func upgrade(w http.ResponseWriter, r *http.Request) (*websocket.Conn, error) { // want upgrade:"hijacks"
	var u websocket.Upgrader
	return u.Upgrade(w, r, nil)
}

// respond only writes: no fact.
func respond(w http.ResponseWriter) {
	w.WriteHeader(http.StatusSwitchingProtocols)
}
