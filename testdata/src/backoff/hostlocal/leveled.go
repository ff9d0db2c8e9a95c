package hostlocal

import (
	"net"
	"os"
	"time"

	"leveled"
)

// RemoveLeveled removes a file of this host and logs each refusal with a
// leveled logger of another package: its printf-shaped calls return
// nothing, so they cannot fail the attempt. Not reported.
func RemoveLeveled(name string) {
	for i := 0; i < 4; i++ {
		err := os.Remove(name)
		if err == nil || os.IsNotExist(err) {
			return
		}
		leveled.V(3).Infof("remove %s: %v (try %d)", name, err, i)
		time.Sleep(time.Second)
	}
	leveled.Errorf("gave up removing %s", name)
}

// RemoveSent hands each refusal to a call of that package that answers
// an error: it may fail, and may reach anywhere. Reported.
func RemoveSent(name string) {
	for i := 0; i < 4; i++ {
		err := os.Remove(name)
		if err == nil || os.IsNotExist(err) {
			return
		}
		_ = leveled.Sendf("remove %s: %v", name, err)
		time.Sleep(time.Second) // want `retry delay has no jitter`
	}
}

// waitForLink waits for the kernel to bring up an interface this host
// just created: it asks this host's kernel and no one else. Not
// reported.
func waitForLink(name string) (*net.Interface, error) {
	var err error
	for i := 0; i < 60; i++ {
		time.Sleep(200 * time.Millisecond)
		ifc, e := net.InterfaceByName(name)
		if e == nil {
			return ifc, nil
		}
		err = e
	}
	return nil, err
}

// waitForName waits for a name to resolve: the resolver asks a DNS
// server other clients share. Reported.
func waitForName(host string) ([]string, error) {
	var err error
	for i := 0; i < 60; i++ {
		time.Sleep(200 * time.Millisecond) // want `retry delay has no jitter`
		addrs, e := net.LookupHost(host)
		if e == nil {
			return addrs, nil
		}
		err = e
	}
	return nil, err
}
