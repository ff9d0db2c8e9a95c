// Package user calls the local helpers of another package: the facts
// carry across packages.
package user

import "hostlocal/facts"

// Listen binds through the other package's helper.
func Listen() error { // want Listen:"hostlocal"
	_, err := facts.Bind("0.0.0.0", 0)
	return err
}

// Reach dials whatever it is given, through the other package.
func Reach(network string) error {
	_, err := facts.DialAny(network, "db:5432")
	return err
}
