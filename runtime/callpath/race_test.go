//go:build race

package callpath_test

const raceEnabled = true
