// Package testutil locates the repository's shared analysistest tree.
package testutil

import (
	"path/filepath"
	"runtime"
)

// TestData returns the absolute path of the repository's testdata
// directory, the GOPATH-style tree (testdata/src/...) that holds every
// analyzer's fixtures and the stubs of third-party APIs.
func TestData() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		panic("testutil: cannot locate source file")
	}
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "testdata")
}
