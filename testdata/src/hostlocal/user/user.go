// Package user calls the local helpers of another package: the facts
// carry across packages.
package user

import (
	"fmt"
	"net"

	"hostlocal/facts"
)

// Listen binds through the other package's helper.
func Listen() error { // want Listen:"^hostlocal$"
	_, err := facts.Bind("0.0.0.0", 0)
	return err
}

// Reach dials whatever it is given, through the other package.
func Reach(network string) error {
	_, err := facts.DialAny(network, "db:5432")
	return err
}

// ListenOn binds itself after parsing the port with the other package's
// helper, which binds nothing but stays on this host.
func ListenOn(addr string) (net.Listener, error) { // want ListenOn:"^hostlocal$"
	port, err := facts.Port(addr)
	if err != nil {
		return nil, err
	}
	return net.Listen("tcp", fmt.Sprintf(":%d", port))
}
