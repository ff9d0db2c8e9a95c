// Package iterator is a stub of google.golang.org/api/iterator for the
// fixtures: the sentinel that ends an iteration.
package iterator

import "errors"

// Done is returned by an iterator's Next method when the iteration is
// complete.
var Done = errors.New("no more items in iterator")
