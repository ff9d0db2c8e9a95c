// Package generated: findings in a file with the standard header of
// generated code are not reported (the generator is where a fix goes);
// the same code written by hand is.
package generated

import "errors"

func call() error { return errors.New("down") }

func inner() error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(); err == nil {
			return nil
		}
	}
	return err
}

func outer() error {
	var err error
	for i := 0; i < 3; i++ { // want `nested retry: retry loop makes 3 attempts`
		if err = inner(); err == nil {
			return nil
		}
	}
	return err
}
