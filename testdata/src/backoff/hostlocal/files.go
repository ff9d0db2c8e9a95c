package hostlocal

import (
	"net/http"
	"os"
	"syscall"
	"time"
)

// ReplaceFile renames over the destination, again after a pause while
// another process of this host holds it: only this host's files are
// touched, there is no dependency for waves to hit.
func ReplaceFile(tmp, dst string) error {
	var err error
	for i := 0; i < 5; i++ {
		if err = os.Rename(tmp, dst); err == nil {
			return nil
		}
		time.Sleep(200 * time.Millisecond)
	}
	return err
}

// LockFile takes an exclusive lock on a file of this host.
func LockFile(f *os.File) error {
	var err error
	for i := 0; i < 10; i++ {
		if err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return err
}

// The near miss: the attempt also tells a server it is done: that call
// reaches another host, so the fixed pause is reported.
func ReplaceAndNotify(c *http.Client, tmp, dst, url string) error {
	var err error
	for i := 0; i < 5; i++ {
		if err = os.Rename(tmp, dst); err == nil {
			var resp *http.Response
			if resp, err = c.Get(url); err == nil {
				resp.Body.Close()
				return nil
			}
		}
		time.Sleep(200 * time.Millisecond) // want `retry delay has no jitter`
	}
	return err
}

// A signal is a file of this host whose appearance says to let go.
type Signal struct {
	Path  string
	Every time.Duration
}

// WaitFor polls the file until it appears, then hands over to a hook it
// was given, once, as it leaves: what repeats is the stat alone.
func (s Signal) WaitFor(stop <-chan struct{}, then func()) {
	for {
		select {
		case <-stop:
			return
		case <-time.After(s.Every):
			if _, err := os.Stat(s.Path); err == nil {
				then()
				return
			}
		}
	}
}

// The near miss: the hook runs on every pass, before the stat: the
// attempt may reach anywhere, so the fixed pause is reported.
func WaitForSignalTold(path string, stop <-chan struct{}, tell func()) {
	for {
		tell()
		if _, err := os.Stat(path); err == nil {
			return
		}
		select {
		case <-stop:
			return
		case <-time.After(time.Second): // want `retry delay has no jitter`
		}
	}
}
