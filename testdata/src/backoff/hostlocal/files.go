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
		time.Sleep(50 * time.Millisecond)
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
		time.Sleep(50 * time.Millisecond) // want `retry delay has no jitter`
	}
	return err
}
