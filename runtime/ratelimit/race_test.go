//go:build race

package ratelimit

// RaceEnabled reports a -race build: simulations that measure skip then.
const RaceEnabled = true
