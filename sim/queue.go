package sim

// event is one thing that happens at a virtual time: 16 bytes, so that a
// node's four children in the heap share one cache line. Events at the same
// time run in client order (then generation and kind), so a run depends
// only on the scenario and the seed.
type event struct {
	at     int64 // virtual time, ns since the start of the run
	client int32 // the client it concerns
	meta   uint32
}

// The event's kind is in meta's low 2 bits, the client's call generation
// (stale events are dropped) in the others.
func mkEvent(at int64, client int32, kind uint8, gen uint32) event {
	return event{at: at, client: client, meta: gen<<2 | uint32(kind)}
}

func (e *event) kind() uint8 { return uint8(e.meta & 3) }
func (e *event) gen() uint32 { return e.meta >> 2 }

func (a *event) before(b *event) bool {
	if a.at != b.at {
		return a.at < b.at
	}
	if a.client != b.client {
		return a.client < b.client
	}
	return a.meta < b.meta
}

// queue is a 4-ary min-heap of events on a plain slice: no interface calls,
// no allocation per event once the slice has grown.
type queue struct {
	h []event
}

func (q *queue) len() int { return len(q.h) }

func (q *queue) push(e event) {
	q.h = append(q.h, e)
	i := len(q.h) - 1
	for i > 0 {
		p := (i - 1) / 4
		if !e.before(&q.h[p]) {
			break
		}
		q.h[i] = q.h[p]
		i = p
	}
	q.h[i] = e
}

func (q *queue) pop() event {
	top := q.h[0]
	n := len(q.h) - 1
	last := q.h[n]
	q.h = q.h[:n]
	if n == 0 {
		return top
	}
	i := 0
	for {
		c := 4*i + 1
		if c >= n {
			break
		}
		m := c
		for j := c + 1; j < c+4 && j < n; j++ {
			if q.h[j].before(&q.h[m]) {
				m = j
			}
		}
		if !q.h[m].before(&last) {
			break
		}
		q.h[i] = q.h[m]
		i = m
	}
	q.h[i] = last
	return top
}
