// Package settable draws identifiers from a package variable declared
// with crypto/rand.Reader that a setter may replace (for tests): still
// the default source, a fresh id; and, near misses, from a variable
// declared with a reader the package was given, and from one written
// only from a parameter.
package settable

import (
	"crypto/rand"
	"io"
	"strings"
)

var rander = rand.Reader

// SetRand replaces the source, or restores the default when r is nil.
func SetRand(r io.Reader) {
	if r == nil {
		rander = rand.Reader
		return
	}
	rander = r
}

type ID [16]byte

func fromReader(r io.Reader) (ID, error) {
	var id ID
	_, err := io.ReadFull(r, id[:])
	return id, err
}

func NewID() (ID, error) { // want NewID:"fresh id"
	return fromReader(rander)
}

var fixed io.Reader = strings.NewReader("0123456789abcdef")

// Stable reads a reader the package fills with constants: not fresh.
func Stable() (ID, error) {
	return fromReader(fixed)
}

var chosen io.Reader

// Use installs the reader Chosen reads.
func Use(r io.Reader) { chosen = r }

// Chosen reads whatever a caller installed: not known to be random.
func Chosen() (ID, error) {
	return fromReader(chosen)
}

// Pin replaces the source with one of the caller's choosing; written
// above the declaration, the write comes first in the file.
func Pin() { pinned = strings.NewReader("fixed") }

var pinned io.Reader = rand.Reader

func PinnedID() (ID, error) { // want PinnedID:"fresh id"
	return fromReader(pinned)
}
