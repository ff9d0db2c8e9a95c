package silenced

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

// Reported: the control case, no directive.
func plain() error {
	var err error
	for i := 0; i < 3; i++ { // want `nested retry: retry loop makes 3 attempts`
		if err = inner(); err == nil {
			return nil
		}
	}
	return err
}

func lineAbove() error {
	var err error
	//resilint:ignore retrynesting inner is the only layer that retries in production
	for i := 0; i < 3; i++ {
		if err = inner(); err == nil {
			return nil
		}
	}
	return err
}

func sameLine() error {
	var err error
	for i := 0; i < 3; i++ { //resilint:ignore retrynesting measured: the amplification is acceptable here
		if err = inner(); err == nil {
			return nil
		}
	}
	return err
}

// A directive for another check silences nothing of this one.
func otherCheck() error {
	var err error
	//resilint:ignore backoff the delay comes from the server
	for i := 0; i < 3; i++ { // want `nested retry`
		if err = inner(); err == nil {
			return nil
		}
	}
	return err
}

// Two lines above is too far.
func tooFar() error {
	var err error
	//resilint:ignore retrynesting too far away

	for i := 0; i < 3; i++ { // want `nested retry`
		if err = inner(); err == nil {
			return nil
		}
	}
	return err
}

// A directive without a reason silences nothing (ignorecheck reports it).
func noReason() error {
	var err error
	//resilint:ignore retrynesting
	for i := 0; i < 3; i++ { // want `nested retry`
		if err = inner(); err == nil {
			return nil
		}
	}
	return err
}

// A known name beside an unknown one still applies.
func withTypo() error {
	var err error
	//resilint:ignore retrynestin,retrynesting the first name is a typo
	for i := 0; i < 3; i++ {
		if err = inner(); err == nil {
			return nil
		}
	}
	return err
}

// With a space after the slashes it is an ordinary comment.
func notADirective() error {
	var err error
	// resilint:ignore retrynesting this is prose, not a directive
	for i := 0; i < 3; i++ { // want `nested retry`
		if err = inner(); err == nil {
			return nil
		}
	}
	return err
}
