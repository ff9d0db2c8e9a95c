//go:build race

package bulkhead

const raceEnabled = true
