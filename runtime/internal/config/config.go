// Package config holds what every runtime package's ConfigError shares:
// the text of the error. Each package defines its own ConfigError type, of
// the same shape (Field, Value, Reason, Err) and documentation, so that its
// godoc stands alone; the text comes from here, so that they all read alike:
//
//	<package>: invalid Config.<Field> <Value>: <Reason>[: <Err>]
//
// A Field that names a field of another struct than Config is qualified by
// it ("MemoryConfig.MaxEntries"); a nil Value is left out.
package config

import (
	"fmt"
	"strings"
)

// Text returns the message of a ConfigError of package pkg.
func Text(pkg, field string, value any, reason string, err error) string {
	if !strings.Contains(field, ".") {
		field = "Config." + field
	}
	s := pkg + ": invalid " + field
	if value != nil {
		s += fmt.Sprintf(" %v", value)
	}
	s += ": " + reason
	if err != nil {
		s += ": " + err.Error()
	}
	return s
}
