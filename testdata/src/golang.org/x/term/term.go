// Package term is a stub of golang.org/x/term for the tests: the
// catalog's rows resolve against it.
package term

// ReadPassword reads a line from the terminal fd without echo.
func ReadPassword(fd int) ([]byte, error) { return nil, nil }
