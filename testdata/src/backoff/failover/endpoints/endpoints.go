// Package endpoints keeps the instances a client may call.
package endpoints

// Ring hands out the instances of a service in turn.
type Ring struct {
	addrs   []string
	next    int
	primary int
	seq     int
}

func New(addrs ...string) *Ring { return &Ring{addrs: addrs} }

// Next returns the next instance and moves on: each call picks another.
func (r *Ring) Next() string {
	i := r.next % len(r.addrs)
	r.next++
	return r.addrs[i]
}

// Primary returns the instance to prefer; calling it moves nothing.
func (r *Ring) Primary() string { return r.addrs[r.primary] }

// Seq numbers requests: it moves a counter, which picks no instance.
func (r *Ring) Seq() int {
	r.seq++
	return r.seq
}
