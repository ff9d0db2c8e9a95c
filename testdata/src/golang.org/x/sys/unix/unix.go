// Package unix is a stand-in for golang.org/x/sys/unix: system calls of
// this host. Its bodies do not matter to the model (the catalog lists the
// package); Dup goes through a function value on purpose, so that only the
// catalog can tell it stays on this host.
package unix

var dup = func(fd int) (int, error) { return fd + 1, nil }

// Dup duplicates a file descriptor.
func Dup(fd int) (int, error) { return dup(fd) }

// An Errno is a system error number.
type Errno uintptr

func (e Errno) Error() string { return "errno" }

// System error numbers.
const (
	EINTR        Errno = 0x4
	EAGAIN       Errno = 0xb
	EWOULDBLOCK  Errno = 0xb
	EPIPE        Errno = 0x20
	ENETDOWN     Errno = 0x64
	ENETUNREACH  Errno = 0x65
	ECONNABORTED Errno = 0x67
	ECONNRESET   Errno = 0x68
	ETIMEDOUT    Errno = 0x6e
	ECONNREFUSED Errno = 0x6f
	EHOSTDOWN    Errno = 0x70
	EHOSTUNREACH Errno = 0x71
)
