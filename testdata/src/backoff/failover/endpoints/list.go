package endpoints

// List walks a fixed list of instances once: At moves its cursor on when
// asked to, and answers nil once the cursor passed the end.
type List struct {
	addrs []string
	at    int
}

func NewList(addrs ...string) *List { return &List{addrs: addrs} }

func (l *List) At(next bool) *string {
	if next {
		l.at++
	}
	if l.at >= len(l.addrs) {
		return nil
	}
	return &l.addrs[l.at]
}

// Loop is List's round-robin twin: it never runs out, and comes round
// to the first instance again after the last.
type Loop struct {
	addrs []string
	at    int
}

func NewLoop(addrs ...string) *Loop { return &Loop{addrs: addrs} }

func (l *Loop) At(next bool) *string {
	if next {
		l.at = (l.at + 1) % len(l.addrs)
	}
	return &l.addrs[l.at]
}
