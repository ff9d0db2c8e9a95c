package sim

// event is one thing that happens at a virtual time. Events at the same
// time run in the order they were scheduled (seq breaks ties), so a run
// depends only on the scenario and the seed.
type event struct {
	at     int64  // virtual time, ns since the start of the run
	seq    uint64 // scheduling order, for ties
	client int32  // the client it concerns, or -1
	kind   uint8
	gen    uint32 // the client's call generation it belongs to (stale events are dropped)
}

func (a *event) before(b *event) bool {
	return a.at < b.at || a.at == b.at && a.seq < b.seq
}

// queue is a 4-ary min-heap of events on a plain slice: no interface calls,
// no allocation per event once the slice has grown.
type queue struct {
	h   []event
	seq uint64
}

func (q *queue) len() int { return len(q.h) }

func (q *queue) push(e event) {
	q.seq++
	e.seq = q.seq
	q.h = append(q.h, e)
	i := len(q.h) - 1
	for i > 0 {
		p := (i - 1) / 4
		if !q.h[i].before(&q.h[p]) {
			break
		}
		q.h[i], q.h[p] = q.h[p], q.h[i]
		i = p
	}
}

func (q *queue) pop() event {
	top := q.h[0]
	n := len(q.h) - 1
	q.h[0] = q.h[n]
	q.h = q.h[:n]
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
		if !q.h[m].before(&q.h[i]) {
			break
		}
		q.h[i], q.h[m] = q.h[m], q.h[i]
		i = m
	}
	return top
}
