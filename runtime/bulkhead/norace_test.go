//go:build !race

package bulkhead

const raceEnabled = false
