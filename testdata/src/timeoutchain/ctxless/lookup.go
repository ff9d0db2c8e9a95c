package ctxless

import (
	"context"
	"net"
)

// dialResolved resolves the server's name with no context before it
// dials under ctx: a resolver that does not answer holds the connect
// past the caller's deadline.
func dialResolved(ctx context.Context, d *net.Dialer, host, port string) (net.Conn, error) {
	addrs, err := net.LookupHost(host) // want `net.LookupHost takes no context`
	if err != nil {
		return nil, err
	}
	return d.DialContext(ctx, "tcp", net.JoinHostPort(addrs[0], port))
}

// services finds a cluster's members through SRV records with no
// context: reported.
func services(ctx context.Context, name string) ([]*net.SRV, error) {
	_, srvs, err := net.LookupSRV("db", "tcp", name) // want `net.LookupSRV takes no context`
	return srvs, err
}

// addresses asks for IPs, whose sibling also takes the network: reported,
// with no automatic fix.
func addresses(ctx context.Context, host string) ([]net.IP, error) {
	return net.LookupIP(host) // want `net.LookupIP takes no context, .*use net.DefaultResolver.LookupIP\(ctx, "ip", host\)`
}

// resolvedBy asks the default resolver under the caller's context: not
// reported.
func resolvedBy(ctx context.Context, host string) ([]string, error) {
	return net.DefaultResolver.LookupHost(ctx, host)
}

// atStart resolves with no context in scope: not reported.
func atStart(host string) ([]string, error) {
	return net.LookupHost(host)
}
