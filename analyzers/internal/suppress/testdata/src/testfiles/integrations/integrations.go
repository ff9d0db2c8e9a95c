// Package integrations connects the product to others' services: its
// plural name is no test harness, and its code is production code.
package integrations

import "errors"

func post() error { return errors.New("down") }

func once() error {
	var err error
	for i := 0; i < 3; i++ {
		if err = post(); err == nil {
			return nil
		}
	}
	return err
}

// Notify tells the connected service.
func Notify() error {
	var err error
	for i := 0; i < 3; i++ { // want `nested retry: retry loop makes 3 attempts`
		if err = once(); err == nil {
			return nil
		}
	}
	return err
}
