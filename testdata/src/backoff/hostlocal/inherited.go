package hostlocal

import (
	"fmt"
	"net"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// ListenInherited binds an inherited descriptor (duplicated by a system
// call) or the address, twice, with a pause in case the kernel has not yet
// released the port. Checking the listener's network reads its address:
// nothing here leaves the host.
func ListenInherited(fd int, addr string) (net.Listener, error) {
	var err error
	for i := 0; i < 2; i++ {
		if i > 0 {
			time.Sleep(100 * time.Millisecond)
		}
		var ln net.Listener
		if fd >= 0 {
			var nfd int
			if nfd, err = unix.Dup(fd); err != nil {
				continue
			}
			f := os.NewFile(uintptr(nfd), addr)
			ln, err = net.FileListener(f)
			f.Close()
			if err != nil {
				continue
			}
			if ln.Addr().Network() != "tcp" {
				ln.Close()
				return nil, fmt.Errorf("descriptor %d is not a TCP socket", fd)
			}
			return ln, nil
		}
		if ln, err = net.Listen("tcp", addr); err == nil {
			return ln, nil
		}
	}
	return nil, err
}

// ListenAndTell binds, then tells the listener's address to a peer it
// dials: that dial reaches another host, so the fixed pause is reported.
func ListenAndTell(peer, addr string) (net.Listener, error) {
	var err error
	for i := 0; i < 2; i++ {
		if i > 0 {
			time.Sleep(100 * time.Millisecond) // want `retry delay has no jitter`
		}
		var ln net.Listener
		if ln, err = net.Listen("tcp", addr); err != nil {
			continue
		}
		var c net.Conn
		if c, err = net.Dial("tcp", peer); err != nil {
			ln.Close()
			continue
		}
		fmt.Fprintln(c, ln.Addr().String())
		c.Close()
		return ln, nil
	}
	return nil, err
}
