package specific

import (
	"errors"
	"os"
	"time"
)

// The os package's predicates are errors.Is with a named failure in an
// older spelling: os.IsExist(err) is errors.Is(err, fs.ErrExist).

type entries interface {
	// Create makes an entry named name; it fails with an error that
	// matches fs.ErrExist when the name is taken.
	Create(name string) error
	Remove(name string) error
	Open(name string) ([]byte, error)
}

// Replace removes a stale entry when the name is taken and creates it
// again at once: the code's answer to that one failure, as with
// errors.Is(err, fs.ErrExist). Not reported.
func Replace(s entries, name string) error {
	for i := 0; i < 3; i++ {
		err := s.Create(name)
		if err == nil {
			return nil
		}
		if !os.IsExist(err) {
			return err
		}
		if err := s.Remove(name); err != nil {
			return err
		}
	}
	return errors.New("entry kept coming back")
}

// ReplaceAny is the near miss: it goes round at once on any failure.
func ReplaceAny(s entries, name string) error {
	for i := 0; i < 3; i++ { // want `tries again at once`
		err := s.Create(name)
		if err == nil {
			return nil
		}
		if err := s.Remove(name); err != nil {
			return err
		}
	}
	return errors.New("entry kept coming back")
}

// AwaitEntry waits a fixed second while the entry another writer is
// finishing is not there yet: one failure of its own request's state,
// which clients do not meet together in an outage. Not reported.
func AwaitEntry(s entries, name string) ([]byte, error) {
	for i := 0; i < 5; i++ {
		b, err := s.Open(name)
		if !os.IsNotExist(err) {
			return b, err
		}
		time.Sleep(time.Second)
	}
	return nil, errors.New("entry never appeared")
}

// AwaitAny is the near miss: the fixed second follows any failure.
func AwaitAny(s entries, name string) ([]byte, error) {
	for i := 0; i < 5; i++ {
		b, err := s.Open(name)
		if err == nil {
			return b, nil
		}
		time.Sleep(time.Second) // want `retry delay has no jitter`
	}
	return nil, errors.New("entry never appeared")
}
