package hostlocal

import (
	"context"
	"hash/crc32"
	"net"
	"net/netip"
	"strconv"
)

// ListenHashed binds a port derived from the address's checksum, the
// next one when it is taken: the attempt hashes bytes in memory and
// binds on this host, and reaches nothing another client shares.
func ListenHashed(ctx context.Context, ip netip.Addr) (net.Listener, error) {
	var lc net.ListenConfig
	var err error
	for try := range uint8(4) {
		b := ip.As16()
		seed := b[len(b)-2:]
		seed[0] += try
		port := 30000 + int(crc32.ChecksumIEEE(seed)%1000)
		var ln net.Listener
		ln, err = lc.Listen(ctx, "tcp", net.JoinHostPort(ip.String(), strconv.Itoa(port)))
		if err == nil {
			return ln, nil
		}
	}
	return nil, err
}

// Near miss: the attempt also announces the port through a function
// value, which may reach anywhere.
func ListenAnnounced(ctx context.Context, ip netip.Addr, announce func(int) error) (net.Listener, error) {
	var lc net.ListenConfig
	var err error
	for try := range uint8(4) { // want `tries again at once`
		b := ip.As16()
		seed := b[len(b)-2:]
		seed[0] += try
		port := 30000 + int(crc32.ChecksumIEEE(seed)%1000)
		var ln net.Listener
		ln, err = lc.Listen(ctx, "tcp", net.JoinHostPort(ip.String(), strconv.Itoa(port)))
		if err == nil {
			if err = announce(port); err == nil {
				return ln, nil
			}
			ln.Close()
		}
	}
	return nil, err
}
