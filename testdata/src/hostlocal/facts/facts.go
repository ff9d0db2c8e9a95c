// Package facts has functions whose every call stays on this host and
// that bind or dial there, and near misses that reach, or may reach,
// another host, or reach nothing.
package facts

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"
)

type transport struct {
	tcp  *net.TCPListener
	udp  *net.UDPConn
	hook func() error
}

// Bind binds both protocols on one port and sizes the UDP buffer.
func Bind(ip string, port int) (*transport, error) { // want Bind:"^hostlocal$"
	addr := &net.TCPAddr{IP: net.ParseIP(ip), Port: port}
	tcp, err := net.ListenTCP("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("tcp listen on %s: %w", addr, err)
	}
	udp, err := net.ListenUDP("udp", &net.UDPAddr{IP: addr.IP, Port: tcp.Addr().(*net.TCPAddr).Port})
	if err != nil {
		tcp.Close()
		return nil, err
	}
	if err := sizeBuffer(udp, 1<<20); err != nil {
		return nil, err
	}
	t := &transport{tcp: tcp, udp: udp}
	go t.serve(Fetch)
	return t, nil
}

// serve runs beside Bind's caller, started with go: what it does is not
// part of the bind.
func (t *transport) serve(report func(string) error) {
	for {
		c, err := t.tcp.Accept()
		if err != nil {
			return
		}
		report(c.RemoteAddr().String())
		c.Close()
	}
}

// sizeBuffer halves the size until the kernel accepts it.
// It stays on this host but binds nothing.
func sizeBuffer(c *net.UDPConn, size int) error { // want sizeBuffer:"hostlocal\\(binds nothing\\)"
	var err error
	for size > 0 {
		if err = c.SetReadBuffer(size); err == nil {
			return nil
		}
		size /= 2
	}
	return err
}

// even and odd call each other and bind nothing.
func even(n int) bool { // want even:"hostlocal\\(binds nothing\\)"
	if n == 0 {
		return true
	}
	return odd(n - 1)
}

func odd(n int) bool { // want odd:"hostlocal\\(binds nothing\\)"
	if n == 0 {
		return false
	}
	return even(n - 1)
}

// FromFile reads a descriptor number and listens on it, through a
// helper that calls itself.
func FromFile(spec string) (net.Listener, error) { // want FromFile:"^hostlocal$"
	fd, err := strconv.ParseUint(strings.TrimPrefix(spec, "fd/"), 10, 32)
	if err != nil {
		return nil, err
	}
	log.Printf("listening on fd %d", fd)
	return listenFile(os.NewFile(uintptr(fd), spec), even(int(fd)))
}

func listenFile(f *os.File, again bool) (net.Listener, error) { // want listenFile:"^hostlocal$"
	if again {
		return listenFile(f, false)
	}
	return net.FileListener(f)
}

// DialAgent dials the host's agent over a Unix socket.
func DialAgent(path string) (net.Conn, error) { // want DialAgent:"^hostlocal$"
	return net.Dial("unix", path)
}

// DialResolved dials the network of a resolved Unix address.
func DialResolved(network, path string) (net.Conn, error) { // want DialResolved:"^hostlocal$"
	a, err := net.ResolveUnixAddr(network, path)
	if err != nil {
		return nil, err
	}
	return net.DialTimeout(a.Network(), a.String(), time.Second)
}

// DialAny dials whatever network it is given: it may reach another host,
// unless the address it is given is one its caller binds.
func DialAny(network, addr string) (net.Conn, error) { // want DialAny:"^dials\\(1\\)$"
	return net.Dial(network, addr)
}

// Fetch reaches a server.
func Fetch(url string) error {
	resp, err := http.Get(url)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// BindThenFetch binds, then calls a helper that reaches a server: not
// local, and neither is its caller.
func BindThenFetch() error {
	if _, err := Bind("127.0.0.1", 0); err != nil {
		return err
	}
	return Fetch("http://example.invalid/ready")
}

func callsBindThenFetch() error { return BindThenFetch() }

// withHook binds, then runs a hook it holds: the hook may be anything.
func (t *transport) withHook() error {
	if _, err := Bind("127.0.0.1", 0); err != nil {
		return err
	}
	return t.hook()
}

// closer closes through an interface: any implementation may reach out.
func closer(c interface{ Close() error }) error { return c.Close() }

// Port parses the port of addr: it stays on this host and binds nothing,
// and keeps local a caller of another package that binds.
func Port(addr string) (int, error) { // want Port:"hostlocal\\(binds nothing\\)"
	_, p, err := net.SplitHostPort(addr)
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(p)
}

// FirstLine reads a file of this host through a bufio.Reader: the reader
// wraps the file and nothing else.
func FirstLine(path string) (string, error) { // want FirstLine:"^hostlocal$"
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	r := bufio.NewReader(f)
	return r.ReadString('\n')
}

// CountLines scans a buffer: it binds nothing.
func CountLines(b []byte) int { // want CountLines:"hostlocal\\(binds nothing\\)"
	n := 0
	for s := bufio.NewScanner(bytes.NewReader(b)); s.Scan(); {
		n++
	}
	return n
}

// The near misses: a reader given by the caller, and one kept in a
// field, may be a connection. (ReadFrom stays on this host when its
// caller gives it a file.)
func ReadFrom(r io.Reader) (string, error) { // want ReadFrom:"streams\\(0\\)"
	return bufio.NewReader(r).ReadString('\n')
}

type lines struct{ r *bufio.Reader }

func (l *lines) next() (string, error) { return l.r.ReadString('\n') }

// parseLines scans the reader it is given: local when that reader is
// this host's (a file), whatever reaches its callers otherwise.
func parseLines(r io.Reader) ([]string, error) { // want parseLines:"streams\\(0\\)"
	var out []string
	s := bufio.NewScanner(r)
	for s.Scan() {
		out = append(out, s.Text())
	}
	return out, s.Err()
}

// MountTable gives parseLines a file: it stays on this host.
func MountTable() ([]string, error) { // want MountTable:"^hostlocal$"
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return parseLines(f)
}

// The near miss gives it a connection: not local (it passes its own
// parameter on, so it is a stream-parameter function in turn).
func RemoteTable(c net.Conn) ([]string, error) { return parseLines(c) } // want RemoteTable:"streams\\(0\\)"
