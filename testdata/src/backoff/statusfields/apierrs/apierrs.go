// Package apierrs declares the API's error type; another package fills
// it in from the responses.
package apierrs

import "fmt"

// Error is a refusal of the API.
type Error struct {
	Code   int
	Detail string
}

func (e *Error) Error() string { return fmt.Sprintf("api: %d %s", e.Code, e.Detail) }
