// Package consts holds package variables that are, and are not, constants
// in all but name.
package consts

// MaxAttempts is never written again: a constant bound.
var MaxAttempts = 3 // want MaxAttempts:"const\\(3\\)"

// Tries is written below: not a constant.
var Tries = 4

// Limit has its address taken: anything may write it.
var Limit = 5

// Steps has no constant initializer.
var Steps = len(name)

var name = "abc"

func Configure(n int) *int {
	Tries = n
	return &Limit
}
