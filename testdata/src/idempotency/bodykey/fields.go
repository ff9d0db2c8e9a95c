package bodykey

import (
	"encoding/json"
	"strconv"
	"time"

	"github.com/resilint/resilint/runtime/retry"
)

type Config struct {
	URL   string
	newID func() string
	name  func() string
}

func withDefaults(c Config) Config {
	if c.newID == nil {
		c.newID = newID
	}
	if c.name == nil {
		c.name = hostName
	}
	return c
}

func hostName() string { return "host-" + strconv.Itoa(7) }

type sender struct {
	Config
	c *client
}

// The batch's id comes from the function field the package sets to newID
// (its tests set a stand-in, which says nothing of what the code draws):
// drawn once, before the retry. Not reported.
func (s *sender) send(events []event) error { // want send:"key place: \\(\\*client\\)\\.upload at fields\\.go:\\d+"
	b, err := json.Marshal(batch{ID: s.newID(), Events: events})
	if err != nil {
		return err
	}
	for i := 0; i < 5; i++ {
		if err = s.c.upload(b); err == nil {
			return nil
		}
		time.Sleep(retry.FullJitter(time.Second))
	}
	return err
}

// The near miss: the field holds a function that draws nothing.
func (s *sender) sendNamed(events []event) error { // want sendNamed:"key place: \\(\\*client\\)\\.upload at fields\\.go:\\d+"
	b, err := json.Marshal(batch{ID: s.name(), Events: events})
	if err != nil {
		return err
	}
	for i := 0; i < 5; i++ {
		if err = s.c.upload(b); err == nil { // want `sends POST \(http.Client.Do at bodykey.go:\d+\) inside a retry without an Idempotency-Key header`
			return nil
		}
		time.Sleep(retry.FullJitter(time.Second))
	}
	return err
}
