package hostlocal

import (
	"crypto/rand"
	"net/http"
)

// NewToken reads the kernel's random source until it answers: this
// host's own state, no dependency to storm.
func NewToken() []byte {
	b := make([]byte, 16)
	for {
		if _, err := rand.Read(b); err == nil {
			return b
		}
	}
}

// The near miss: each pass also asks a server for its nonce.
func NewNonce(c *http.Client, url string) []byte {
	b := make([]byte, 16)
	for { // want `retry loop tries again at once` `retry loop has no bound`
		if _, err := rand.Read(b); err != nil {
			continue
		}
		resp, err := c.Get(url)
		if err == nil {
			resp.Body.Close()
			return b
		}
	}
}
