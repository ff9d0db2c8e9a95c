package bounds

import (
	"errors"
	"time"
)

type dsnPool struct{ conns map[string]bool }

func (p *dsnPool) dial(dsn string) error { return errors.New("refused") }

// once counts its passes at the top and gives up past the first: one
// attempt, whose wait after a failure only delays the return. Not
// reported.
func (p *dsnPool) once(dsn string) error {
	var err error
	passes := 0
	limit := 1
	for {
		if passes++; passes > limit {
			return err
		}
		if err = p.dial(dsn); err != nil {
			time.Sleep(time.Duration(passes) * time.Second)
			continue
		}
		return nil
	}
}

// twice lets a second attempt follow the wait: reported.
func (p *dsnPool) twice(dsn string) error {
	var err error
	passes := 0
	limit := 2
	for {
		if passes++; passes > limit {
			return err
		}
		if err = p.dial(dsn); err != nil {
			time.Sleep(time.Duration(passes) * time.Second) // want `retry delay has no jitter`
			continue
		}
		return nil
	}
}
