package hostlocal

import (
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"time"
)

// Logger is the logging facade a program is configured with.
type Logger interface {
	Warnf(format string, args ...any)
}

// Notifier tells something a result; it may fail.
type Notifier interface {
	Notify(msg string) error
}

// RemoveLogged removes a file of this host, logging each refusal through
// the facade: the facade's method returns nothing, so it cannot fail the
// attempt and what it reaches is not what is retried. Not reported.
func RemoveLogged(log Logger, name string) {
	for i := 0; i < 4; i++ {
		err := os.Remove(name)
		if err == nil || os.IsNotExist(err) {
			return
		}
		log.Warnf("remove %s: %v (try %d)", name, err, i)
		time.Sleep(time.Second)
	}
}

// RemoveNotified tells a notifier instead, whose method may fail: it may
// reach anywhere, so the fixed pause is reported.
func RemoveNotified(n Notifier, name string) {
	for i := 0; i < 4; i++ {
		err := os.Remove(name)
		if err == nil || os.IsNotExist(err) {
			return
		}
		_ = n.Notify("remove failed")
		time.Sleep(time.Second) // want `retry delay has no jitter`
	}
}

// LoadSnapshot decodes a file another process may be rewriting, again
// after a pause when the decode fails: the decoder reads this host's
// file. Not reported.
func LoadSnapshot(path string, v any) error {
	var last error
	for i := 0; i < 3; i++ {
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		err = json.NewDecoder(f).Decode(v)
		f.Close()
		if err == nil {
			return nil
		}
		last = errors.Join(errors.New("decode snapshot"), err)
		time.Sleep(time.Second)
	}
	return last
}

// LoadRemote decodes a response body the same way: the body is the
// network's, reported.
func LoadRemote(hc *http.Client, url string, v any) error {
	var last error
	for i := 0; i < 3; i++ {
		resp, err := hc.Get(url)
		if err != nil {
			return err
		}
		err = json.NewDecoder(resp.Body).Decode(v)
		resp.Body.Close()
		if err == nil {
			return nil
		}
		last = err
		time.Sleep(time.Second) // want `retry delay has no jitter`
	}
	return last
}
