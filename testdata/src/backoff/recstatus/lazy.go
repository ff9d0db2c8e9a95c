package recstatus

import (
	"net"
	"sync"
	"sync/atomic"
)

// sender opens its connection on first use.
type sender struct {
	addr string
	conn atomic.Pointer[net.UDPConn]
	mu   sync.Mutex
}

func (s *sender) open() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	a, err := net.ResolveUDPAddr("udp", s.addr)
	if err != nil {
		return err
	}
	c, err := net.DialUDP("udp", nil, a)
	if err != nil {
		return err
	}
	s.conn.Store(c)
	return nil
}

// Send opens the connection on first use and then calls itself once to
// take the path that writes. It calls itself only past a test that
// returns on the open's error and on a missing connection: after a
// success. Not reported.
func (s *sender) Send(b []byte) (int, error) {
	if c := s.conn.Load(); c != nil {
		return c.Write(b)
	}
	if err := s.open(); err != nil || s.conn.Load() == nil {
		return 0, err
	}
	return s.Send(b)
}

// SendAgain calls itself past a test that returns on the open's success
// or when no tries are left: after a failure, at once. Reported.
func (s *sender) SendAgain(b []byte, tries int) (int, error) {
	if c := s.conn.Load(); c != nil {
		return c.Write(b)
	}
	err := s.open()
	if err == nil || tries <= 0 {
		return 0, err
	}
	return s.SendAgain(b, tries-1) // want `recursive retry tries again at once after a failure`
}
