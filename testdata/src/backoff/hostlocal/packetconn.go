package hostlocal

import "net"

// media keeps its sockets in interface-typed fields.
type media struct {
	data, control net.PacketConn
	local         net.UDPAddr
}

// bindPair binds a data port and the control port above it.
func (m *media) bindPair(ip net.IP, port int) error {
	var err error
	m.data, err = net.ListenUDP("udp", &net.UDPAddr{IP: ip, Port: port})
	if err != nil {
		return err
	}
	laddr := m.data.LocalAddr().(*net.UDPAddr)
	m.control, err = net.ListenUDP("udp", &net.UDPAddr{IP: laddr.IP, Port: laddr.Port + 1})
	if err != nil {
		m.data.Close()
		return err
	}
	m.local = *laddr
	return nil
}

// BindPair tries again at once when the control port was taken: every
// attempt binds sockets of this host, asking its address and closing
// through the interface. Not reported.
func (m *media) BindPair(ip net.IP) (err error) {
	for i := 0; i < 10; i++ {
		if err = m.bindPair(ip, 0); err == nil {
			return nil
		}
	}
	return err
}

// The near miss: the attempt also writes through the interface, which
// reaches whatever peer the connection has.
func (m *media) Announce(ip net.IP, peer net.Addr) (err error) {
	for i := 0; i < 10; i++ { // want `retry loop tries again at once`
		if err = m.bindPair(ip, 0); err == nil {
			if _, err = m.data.WriteTo([]byte("hello"), peer); err == nil {
				return nil
			}
		}
	}
	return err
}
