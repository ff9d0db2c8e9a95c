// Package lines: loops over the lines of a reader, whose condition
// advances the scanner to the next line. A line that fails is skipped,
// not tried again: no retry, whatever the loop calls.
package lines

import (
	"bufio"
	"io"
	"strconv"
	"strings"
	"time"
)

type resolver interface {
	Lookup(name string) (string, error)
}

// FirstResolved looks up each line's name until one resolves: each pass
// asks about the next line. Not reported.
func FirstResolved(r io.Reader, c resolver) (string, error) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		v, err := c.Lookup(strings.TrimSpace(sc.Text()))
		if err != nil {
			continue
		}
		return v, nil
	}
	return "", sc.Err()
}

// ValueOf returns the number after key in "key value" lines; a value
// that does not parse is skipped. Its only fallible call is a parse of
// its argument (a catalog Pure row), which reaches nothing: not reported
// however the loop is shaped.
func ValueOf(r io.Reader, key string) (uint64, error) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 2 || f[0] != key {
			continue
		}
		if v, err := strconv.ParseUint(f[1], 10, 64); err == nil {
			return v, nil
		}
	}
	return 0, sc.Err()
}

// Parsed re-parses the same text a fixed number of times: pointless, but
// it reaches nothing. Not reported.
func Parsed(s string) (time.Duration, error) {
	var err error
	for i := 0; i < 3; i++ {
		var d time.Duration
		if d, err = time.ParseDuration(s); err == nil {
			return d, nil
		}
	}
	return 0, err
}

// LookupWhileScanning is the near miss: the condition advances the
// scanner, but the operation is given the same name on every pass, and
// goes round at once after a failure.
func LookupWhileScanning(r io.Reader, c resolver, name string) (string, error) {
	sc := bufio.NewScanner(r)
	for sc.Scan() { // want `tries again at once` `has no bound`
		v, err := c.Lookup(name)
		if err != nil {
			continue
		}
		return v + sc.Text(), nil
	}
	return "", sc.Err()
}

// Lookups is the near miss of Parsed: the same name looked up three
// times at once.
func Lookups(c resolver, name string) (string, error) {
	var err error
	for i := 0; i < 3; i++ { // want `tries again at once`
		var v string
		if v, err = c.Lookup(name); err == nil {
			return v, nil
		}
	}
	return "", err
}
