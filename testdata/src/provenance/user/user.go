// Package user reads another package's variables: only MaxAttempts has a
// constant value (through its fact).
package user

import "provenance/consts"

func Bounds() []int {
	return []int{consts.MaxAttempts, consts.Tries, consts.Limit, consts.Steps}
}
