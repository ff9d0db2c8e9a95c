package hostlocal

import (
	"errors"
	"os"
)

var errGone = errors.New("gone")

// The failure block ends in a return, but a path inside it goes round
// first, after asking a function value (which may reach anywhere) to
// fetch the file: the attempt does not stay on this host. Reported.
func OpenFetched(path string, fetch func(string) error) (*os.File, error) {
	for { // want `tries again at once`
		f, err := os.Open(path)
		if err != nil {
			if fetch != nil {
				if err := fetch(path); err != nil {
					return nil, errGone
				}
				continue
			}
			return nil, err
		}
		return f, nil
	}
}

// Near miss: the function value is called only on the way out; what
// goes round is the open alone, on this host. Not reported.
func OpenOrReport(path string, report func(error)) (*os.File, error) {
	for i := 0; i < 3; i++ {
		f, err := os.Open(path)
		if err != nil {
			if os.IsPermission(err) {
				continue
			}
			report(err)
			return nil, err
		}
		return f, nil
	}
	return nil, errGone
}
