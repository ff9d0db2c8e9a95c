package reads

import (
	"strings"
	"time"
)

func send(n int) error        { return errNeedMore }
func lookup(key string) error { return errNeedMore }

// A variable declared in the body is made anew in every pass: deriving it
// from itself there (n = n * 2) gives the same value each pass, so the
// loop sends the same request again.
func doubled(base int) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		n := base
		n = n * 2
		if err = send(n); err == nil {
			return nil
		}
		time.Sleep(time.Second) // want `retry delay has no jitter`
	}
	return err
}

// The same with a sum over a fixed input and a trimmed key.
func summed(ids []int, base string) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		var n int
		for _, id := range ids {
			n += id
		}
		key := base
		key = strings.TrimSpace(key) + "/"
		if err = send(n); err == nil {
			if err = lookup(key); err == nil {
				return nil
			}
		}
		time.Sleep(time.Second) // want `retry delay has no jitter`
	}
	return err
}

// The near miss: the size kept outside the loop doubles from pass to
// pass, each pass asks for more.
func growing(base int) error {
	var err error
	n := base
	for attempt := 0; attempt < 3; attempt++ {
		if err = send(n); err == nil {
			return nil
		}
		n = n * 2
		time.Sleep(time.Second)
	}
	return err
}
