package testfiles

import "testing"

// The same nesting in a test file: not reported unless tests are switched on.
func TestOuter(t *testing.T) {
	var err error
	for i := 0; i < 3; i++ {
		if err = inner(); err == nil {
			return
		}
	}
	t.Log(err)
}
