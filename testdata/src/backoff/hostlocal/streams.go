package hostlocal

import (
	"bufio"
	"io"
	"net"
	"os"
	"strings"
	"syscall"
	"time"
)

// mountedAt scans this host's mount table through a bufio.Scanner over
// the file: the scanner reads the file, nothing else.
func mountedAt(path string) (bool, error) {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return false, err
	}
	defer f.Close()
	s := bufio.NewScanner(io.LimitReader(bufio.NewReader(f), 1<<20))
	for s.Scan() {
		if fields := strings.Fields(s.Text()); len(fields) > 4 && fields[4] == path {
			return true, nil
		}
	}
	return false, s.Err()
}

// RemoveBusyDir removes a directory a mount still holds, unmounting what
// the mount table lists and pausing between passes: every call stays on
// this host (its files, its mounts), there is no dependency that clients
// share for synchronized waves to hit.
func RemoveBusyDir(dir string) error {
	var err error
	for i := 0; i < 50; i++ {
		if err = os.RemoveAll(dir); err == nil {
			return nil
		}
		if m, _ := mountedAt(dir); m {
			if e := syscall.Unmount(dir, syscall.MNT_DETACH); e != nil {
				return e
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	return err
}

// lineFrom reads a line from a reader it is given: any reader, a network
// connection among them.
func lineFrom(r io.Reader) (string, error) {
	return bufio.NewReader(r).ReadString('\n')
}

// The near misses: a scanner over a connection, or over a reader given
// by the caller, reaches whatever is at the other end; the fixed pause is
// reported.
func AwaitBanner(c net.Conn) (string, error) {
	var err error
	for i := 0; i < 5; i++ {
		var line string
		if line, err = bufio.NewReader(c).ReadString('\n'); err == nil {
			return line, nil
		}
		time.Sleep(200 * time.Millisecond) // want `retry delay has no jitter`
	}
	return "", err
}

func AwaitLine(r io.Reader) (string, error) {
	var err error
	for i := 0; i < 5; i++ {
		var line string
		if line, err = lineFrom(r); err == nil {
			return line, nil
		}
		time.Sleep(200 * time.Millisecond) // want `retry delay has no jitter`
	}
	return "", err
}

// scanTable scans a mount table from the reader it is given.
func scanTable(r io.Reader, path string) bool {
	s := bufio.NewScanner(r)
	for s.Scan() {
		if fields := strings.Fields(s.Text()); len(fields) > 4 && fields[4] == path {
			return true
		}
	}
	return false
}

// mountedVia opens the table and hands the file to scanTable: a call of
// this host, as if the scan were written here.
func mountedVia(path string) bool {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return false
	}
	defer f.Close()
	return scanTable(f, path)
}

// RemoveBusyDirVia removes a busy directory as RemoveBusyDir does, asking
// the mount table through a parser of a reader. Not reported.
func RemoveBusyDirVia(dir string) error {
	var err error
	for i := 0; i < 50; i++ {
		if err = os.RemoveAll(dir); err == nil {
			return nil
		}
		if mountedVia(dir) {
			if e := syscall.Unmount(dir, syscall.MNT_DETACH); e != nil {
				return e
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	return err
}

// The near miss hands the parser a connection.
func AwaitMount(c net.Conn, dir string) error {
	var err error
	for i := 0; i < 5; i++ {
		if err = os.RemoveAll(dir); err == nil {
			return nil
		}
		if scanTable(c, dir) {
			return err
		}
		time.Sleep(200 * time.Millisecond) // want `retry delay has no jitter`
	}
	return err
}
