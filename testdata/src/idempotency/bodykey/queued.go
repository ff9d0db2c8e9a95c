package bodykey

import (
	"encoding/json"
	"time"

	"github.com/resilint/resilint/runtime/retry"
)

// message is named when it is queued: every message the package makes
// gets a fresh random id.
type message struct {
	MessageID string `json:"messageId"`
	Event     string `json:"event"`
}

type tracker struct {
	c     *client
	queue chan message
}

// Track queues a message, named long before any send.
func (t *tracker) Track(event string) {
	t.queue <- message{MessageID: newID(), Event: event}
}

// send marshals a batch of queued messages and resends the same bytes:
// each message carries its id, which the service deduplicates on. Not
// reported.
func (t *tracker) send(batch []message) error { // want send:"key place: \\(\\*client\\)\\.upload at queued\\.go:\\d+"
	b, err := json.Marshal(batch)
	if err != nil {
		return err
	}
	for i := 0; i < 4; i++ {
		if err = t.c.upload(b); err == nil {
			return nil
		}
		time.Sleep(retry.FullJitter(time.Second))
	}
	return err
}

// note is numbered by a counter where it is made, not drawn: it names
// nothing another client's note could not have.
type note struct {
	ID   string `json:"id"`
	Text string `json:"text"`
}

var noteSeq int

func newNote(text string) note {
	noteSeq++
	return note{ID: string(rune('a' + noteSeq%26)), Text: text}
}

// sendNotes is send for notes: reported.
func (t *tracker) sendNotes(notes []note) error { // want sendNotes:"key place: \\(\\*client\\)\\.upload at queued\\.go:\\d+"
	b, err := json.Marshal(notes)
	if err != nil {
		return err
	}
	for i := 0; i < 4; i++ {
		if err = t.c.upload(b); err == nil { // want `sends POST \(http.Client.Do at bodykey.go:\d+\) inside a retry without an Idempotency-Key header`
			return nil
		}
		time.Sleep(retry.FullJitter(time.Second))
	}
	return err
}

// mixed is named at random in one place and left empty in another: not
// every value names itself.
type mixed struct {
	ID   string `json:"id"`
	Body string `json:"body"`
}

func newMixed(body string, named bool) mixed {
	if named {
		return mixed{ID: newID(), Body: body}
	}
	return mixed{ID: "", Body: body}
}

// sendMixed is send for them: reported.
func (t *tracker) sendMixed(items []mixed) error { // want sendMixed:"key place: \\(\\*client\\)\\.upload at queued\\.go:\\d+"
	b, err := json.Marshal(items)
	if err != nil {
		return err
	}
	for i := 0; i < 4; i++ {
		if err = t.c.upload(b); err == nil { // want `sends POST \(http.Client.Do at bodykey.go:\d+\) inside a retry without an Idempotency-Key header`
			return nil
		}
		time.Sleep(retry.FullJitter(time.Second))
	}
	return err
}
