package hostlocal

import (
	"fmt"
	"net"
	"time"
)

// ReloadDaemon asks the daemon on this host to reload, over its Unix
// socket, through a closure the loop calls: the dial, the writes on the
// connection (also asserted to its type) and the close all stay on
// this host, so there is no one to fall in step with. Not reported.
func ReloadDaemon(socket string) error {
	reload := func() error {
		conn, err := net.Dial("unix", socket)
		if err != nil {
			return fmt.Errorf("dial %s: %w", socket, err)
		}
		defer conn.Close()
		if _, err := conn.Write([]byte("reload\n")); err != nil {
			return err
		}
		_, _, err = conn.(*net.UnixConn).WriteMsgUnix([]byte("ack?"), nil, nil)
		return err
	}
	var err error
	for i := 0; i < 6; i++ {
		if err = reload(); err == nil {
			return nil
		}
		time.Sleep(5 * time.Second)
	}
	return err
}

// ReloadRemote does the same over TCP to an address it is given: the
// daemon may be anyone's. Reported.
func ReloadRemote(addr string) error {
	reload := func() error {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			return fmt.Errorf("dial %s: %w", addr, err)
		}
		defer conn.Close()
		_, err = conn.Write([]byte("reload\n"))
		return err
	}
	var err error
	for i := 0; i < 6; i++ {
		if err = reload(); err == nil {
			return nil
		}
		time.Sleep(5 * time.Second) // want `retry delay has no jitter`
	}
	return err
}
