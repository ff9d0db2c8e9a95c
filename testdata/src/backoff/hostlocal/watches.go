package hostlocal

import (
	"net/http"
	"os"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Rewatch waits for a replaced file to come back and watches it again:
// a stat and a file watch, both this host's kernel's. Not reported.
func Rewatch(w *fsnotify.Watcher, name string) {
	for {
		if _, err := os.Stat(name); err == nil {
			if err := w.Add(name); err == nil {
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// The near miss: the attempt also tells a server, which may be down:
// reported.
func RewatchTold(c *http.Client, w *fsnotify.Watcher, name, url string) {
	for { // want `retry loop has no bound`
		if _, err := os.Stat(name); err == nil {
			if err := w.Add(name); err == nil {
				if resp, err := c.Post(url, "text/plain", nil); err == nil {
					resp.Body.Close()
					return
				}
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
}
