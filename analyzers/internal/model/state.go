package model

import (
	"go/ast"
	"go/constant"
	"go/types"
	"hash/maphash"
	"math/bits"
	"slices"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/model/waits"
)

// status is what a path knows about the outcome of one fallible operation.
type status uint8

const (
	stUnknown status = iota // the outcome has not been examined
	stOK                    // proven successful: err == nil, or a good HTTP status
	stFailed                // proven failed: err != nil, or a retryable HTTP status
	stChecked               // examined by a predicate whose direction is unknown
	stMaybe                 // known not to be one particular error: nil or another
)

func (s status) String() string {
	return [...]string{"?", "ok", "failed", "checked", "maybe"}[s]
}

// The HTTP statuses a response can have, as sample points: a condition on
// resp.StatusCode is evaluated at each and the path keeps the set for which
// it holds.
// Every status of net/http's constants that a client may meet is one (a
// comparison with a status left out would have no sample to hold at).
var httpSamples = [...]int64{
	200, 201, 202, 203, 204, 205, 206, 207, 208, 226,
	300, 301, 302, 303, 304, 307, 308,
	400, 401, 402, 403, 404, 405, 406, 407, 408, 409, 410, 411, 412, 413, 414, 415, 416, 417, 418,
	421, 422, 423, 424, 425, 426, 428, 429, 431, 451,
	500, 501, 502, 503, 504, 505, 506, 507, 508, 510, 511,
}

const fullMask = uint64(1)<<len(httpSamples) - 1

func httpSuccess(code int64) bool { return code < 400 }

// clientErrorMask holds the sample statuses that say the request itself
// was refused (4xx), not that the server is overloaded or down: not 408,
// 425 or 429.
var clientErrorMask = func() uint64 {
	var m uint64
	for i, c := range httpSamples {
		if c >= 400 && c < 500 && !httpRetryable(c) {
			m |= 1 << i
		}
	}
	return m
}()

// refusedMask holds the sample statuses that say the server did not act
// on the request: every 4xx, 408, 425 and 429 included (a rate limiter
// refuses before anything runs).
var refusedMask = func() uint64 {
	var m uint64
	for i, c := range httpSamples {
		if c >= 400 && c < 500 {
			m |= 1 << i
		}
	}
	return m
}()

// refused reports whether the path knows a response of its to have one
// of refusedMask's statuses: resending the request cannot do it twice.
func (s *state) refused() bool {
	for _, sl := range s.slots {
		if sl.isResp && sl.mask != 0 && sl.mask&^refusedMask == 0 {
			return true
		}
	}
	return false
}

// clientError reports whether the path knows a response of its to have
// one of clientErrorMask's statuses: its failure is a refusal of this
// request (an expired token, a conflict), which no outage causes.
func (s *state) clientError() bool {
	for _, sl := range s.slots {
		if sl.isResp && sl.mask != 0 && sl.mask&^clientErrorMask == 0 {
			return true
		}
	}
	return false
}
func httpRetryable(code int64) bool {
	return code == 408 || code == 425 || code == 429 || code >= 500 && code != 501
}

// maskStatus classifies a set of possible HTTP statuses.
func maskStatus(mask uint64, checked bool) status {
	if mask == fullMask || mask == 0 {
		if checked {
			return stChecked
		}
		return stUnknown
	}
	allGood, allBad, retryable := true, true, false
	has200, classes := false, uint8(0) // classes: a bit per hundred
	for i, code := range httpSamples {
		if mask&(1<<i) == 0 {
			continue
		}
		classes |= 1 << (code / 100)
		has200 = has200 || code == 200
		if httpSuccess(code) {
			allBad = false
		} else {
			allGood = false
			if httpRetryable(code) {
				retryable = true
			}
		}
	}
	switch {
	case allGood && !has200 && bits.OnesCount8(classes) > 1:
		// 201..226 and the 3xx, without 200: what is left once the code
		// took 200 (and set other statuses aside), no status it asked
		// for as a poll asks for 202: a success the code did not
		// accept, of unknown direction.
		return stChecked
	case allGood:
		return stOK
	case allBad && retryable:
		return stFailed
	default:
		return stChecked
	}
}

// slot is the knowledge about one operation result held in a variable (or,
// for a call compared inline, in the call expression itself).
type slot struct {
	key     any // types.Object or ast.Node
	st      status
	isResp  bool   // an *http.Response: mask is meaningful
	mask    uint64 // possible statuses, for responses
	checked bool   // a response examined by a predicate
	// partials are the operation's other results (bytes read, a page):
	// using one before the operation is known to have succeeded means the
	// loop makes progress with partial results (a read or write loop), not
	// a retry.
	partials []types.Object
	// carrier: key is the one result of an operation that carries its
	// outcome in an error field (`res := do(ctx); if res.Err != nil`),
	// and its own partial: the status is that of the field.
	carrier bool
	// op is the call that produced the outcome.
	op *ast.CallExpr
	// judges are the responses the operation was given to check (an
	// error-only call such as `err = checkResponse(resp)`): its success
	// accepts them.
	judges []any
	// accepted marks a response that an operation given it accepted: a
	// later predicate over it (how long to wait, what to log) is no
	// verdict on its outcome.
	accepted bool
	// session: the operation runs until it fails (SessionFact); its
	// error is never nil.
	session bool
}

func (sl slot) status() status {
	if sl.isResp {
		return maskStatus(sl.mask, sl.checked)
	}
	return sl.st
}

// val is a concretely known value of a local counter or flag.
type val struct {
	key any
	v   constant.Value
}

// state is one path's abstract state. States are treated as immutable once
// shared: every change goes to a clone.
type state struct {
	slots      []slot
	vals       []val
	bools      []boolDef
	stickyFail bool // an operation failed earlier on this path and was then overwritten
	stickyOK   bool // an operation succeeded earlier on this path and was then overwritten
	// firstOK: the judged loop's first operation succeeded in this pass
	// and a later one overwrote its outcome (`r, err := decode(u)` after
	// `u, err := s.Recv()`)
	firstOK   bool
	opIter    bool // an operation ran in the current iteration
	progress  bool // a partial result of an unsuccessful operation was used in this iteration
	delayed   bool // the path waited (sleep, timer) since its last operation
	boundFork bool // the path went one way of an undecided test of the loop's bound
	verdict   bool // an outcome was examined only through its operation's own bool (opVerdict)...
	verdictNo bool // ...and the bool was false
	// empty: the path learned that an operation known to have succeeded
	// answered with nothing (`err == nil && ws != nil` taken false): a
	// pass that goes round on it treats the empty answer as it treats
	// the failures, so it is no poll of a value that changes.
	empty bool
	// identified: since its last operation the path examined which
	// failure it had and went on as for that one only: a comparison with
	// an error value (err == errStale, errors.Is), its type (errors.As, a
	// type switch case), its text, or the operation's own verdict bool.
	identified bool
	// ownType: what the path identified since its last operation is an
	// error of a concrete type that wraps no other error (errors.As into
	// a *pgconn.PgError), or an RPC status code no cancellation gives
	// (status.Code(err) == codes.Unavailable; catalog.CancelCodes): a
	// cancelled attempt's context error is never one.
	ownType bool
	// outage: something the path identified since its last operation
	// may be a failure many clients share while a dependency is down:
	// anything but a comparison with an error value that names one
	// failure of no outage kind (specific).
	outage bool
	// unsent: something the path identified since its last operation
	// says the request never reached the server (a connection refused:
	// the catalog's Unsent rows).
	unsent bool
	// delayMay: the path's wait since its last operation (delayed) is
	// only a call that may wait (a hook held in a field), none that
	// surely does.
	delayMay bool
	// pendFail, pendOK: the path went round after a failure (a success)
	// of its pass with no sure wait since; whether it waits before its
	// next operation, at the top of the next pass, decides what the
	// resume rule makes of it (resumeSeen.settle).
	pendFail, pendOK bool
	// delayVal: the value the path last gave a variable one of the
	// loop's waits reads its duration from (resumeSeen.delayVars) since
	// its last operation (`wait = time.Second` on a failure): nil when
	// it gave none.
	delayVal ast.Node
	attempts int // completed iterations that ran an operation
}

// boolDef remembers that a local bool was assigned a condition, so that a
// later `if ok` can be judged like the condition itself.
type boolDef struct {
	key  any
	expr any // ast.Expr
}

func (s *state) clone() *state {
	c := *s
	c.slots = append([]slot(nil), s.slots...)
	c.vals = append([]val(nil), s.vals...)
	c.bools = append([]boolDef(nil), s.bools...)
	return &c
}

func (s *state) slot(key any) (slot, bool) {
	for _, sl := range s.slots {
		if sl.key == key {
			return sl, true
		}
	}
	return slot{}, false
}

func (s *state) setSlot(sl slot) {
	for i := range s.slots {
		if s.slots[i].key == sl.key {
			s.slots[i] = sl
			return
		}
	}
	s.slots = append(s.slots, sl)
}

// overwrite records that the slot at key is about to hold a new value.
// A variable given a new value no longer holds a partial result of the
// operation that set it before: `c, err := net.Dial(...)` in the next
// pass leaves `lastErr = err`, the copy of the last pass's failure,
// without c.
func (s *state) overwrite(key any) {
	for i, sl := range s.slots {
		if sl.key == key {
			switch sl.status() {
			case stFailed, stChecked:
				s.stickyFail = true
			case stOK:
				s.stickyOK = true
			}
			s.slots = append(s.slots[:i], s.slots[i+1:]...)
			break
		}
	}
	obj, ok := key.(types.Object)
	if !ok {
		return
	}
	for i := range s.slots {
		if slices.Contains(s.slots[i].partials, obj) {
			// The slice may be shared with other states: a new one.
			s.slots[i].partials = slices.DeleteFunc(slices.Clone(s.slots[i].partials), func(o types.Object) bool { return o == obj })
		}
	}
}

func (s *state) val(key any) (constant.Value, bool) {
	for _, v := range s.vals {
		if v.key == key {
			return v.v, true
		}
	}
	return nil, false
}

func (s *state) setVal(key any, v constant.Value) {
	for i := range s.vals {
		if s.vals[i].key == key {
			if v == nil {
				s.vals = append(s.vals[:i], s.vals[i+1:]...)
			} else {
				s.vals[i].v = v
			}
			return
		}
	}
	if v != nil {
		s.vals = append(s.vals, val{key, v})
	}
}

func (s *state) boolDef(key any) (any, bool) {
	for _, b := range s.bools {
		if b.key == key {
			return b.expr, true
		}
	}
	return nil, false
}

func (s *state) setBoolDef(key any, expr any) {
	for i := range s.bools {
		if s.bools[i].key == key {
			if expr == nil {
				s.bools = append(s.bools[:i], s.bools[i+1:]...)
			} else {
				s.bools[i].expr = expr
			}
			return
		}
	}
	if expr != nil {
		s.bools = append(s.bools, boolDef{key, expr})
	}
}

// failing reports whether the path carries a failure signal: an
// operation that failed (or was judged by a predicate) in this iteration.
func (s *state) failing() bool {
	if s.stickyFail {
		return true
	}
	for _, sl := range s.slots {
		if st := sl.status(); st == stFailed || st == stChecked {
			return true
		}
	}
	return false
}

// succeeded reports whether some operation on the path is known to have
// succeeded (or was judged by a predicate and may have).
func (s *state) succeeded() bool {
	if s.stickyOK {
		return true
	}
	for _, sl := range s.slots {
		if st := sl.status(); st == stOK || st == stChecked || st == stMaybe {
			return true
		}
	}
	return false
}

// okOnly reports whether every examined operation on the path succeeded.
func (s *state) okOnly() bool {
	if s.failing() {
		return false
	}
	if s.stickyOK {
		return true
	}
	for _, sl := range s.slots {
		if st := sl.status(); st == stOK || st == stMaybe {
			return true
		}
	}
	return false
}

// hash identifies the state for deduplication, with equal deciding
// between states whose hashes collide; attempts are not part of it (paths
// that differ only in the count are merged, keeping the maximum). Entries
// are combined by addition, so the order in which a path learned them does
// not matter.
func (s *state) hash() uint64 {
	var h uint64
	for _, sl := range s.slots {
		bits := uint64(sl.st)
		if sl.isResp {
			bits |= 1 << 40
		}
		if sl.checked {
			bits |= 1 << 41
		}
		if sl.accepted {
			bits |= 1 << 42
		}
		if sl.carrier {
			bits |= 1 << 43
		}
		h += mix(mix(maphash.Comparable(keySeed, sl.key), bits), sl.mask)
	}
	for _, v := range s.vals {
		h += mix(maphash.Comparable(keySeed, v.key), maphash.String(keySeed, v.v.ExactString())^0x5bd1e995)
	}
	for _, b := range s.bools {
		h += mix(maphash.Comparable(keySeed, b.key), maphash.Comparable(keySeed, b.expr)^0x27d4eb2f)
	}
	var flags uint64
	for i, f := range [...]bool{s.stickyFail, s.stickyOK, s.opIter, s.progress, s.delayed, s.boundFork, s.verdict, s.verdictNo, s.identified, s.outage, s.unsent, s.empty, s.delayMay, s.pendFail, s.pendOK, s.ownType, s.firstOK} {
		if f {
			flags |= 1 << i
		}
	}
	if s.delayVal != nil {
		h = mix(h, uint64(s.delayVal.Pos()))
	}
	return mix(h, flags)
}

// keySeed seeds the hashes of states; it is never written after
// initialization.
var keySeed = maphash.MakeSeed()

func mix(a, b uint64) uint64 {
	x := a ^ (b * 0x9e3779b97f4a7c15)
	x ^= x >> 31
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 29
	return x
}

// equal reports whether a and b are the same state but for attempts.
func equal(a, b *state) bool {
	if a.stickyFail != b.stickyFail || a.stickyOK != b.stickyOK || a.firstOK != b.firstOK || a.opIter != b.opIter ||
		a.progress != b.progress || a.delayed != b.delayed || a.boundFork != b.boundFork || a.verdict != b.verdict || a.verdictNo != b.verdictNo || a.identified != b.identified || a.outage != b.outage || a.unsent != b.unsent || a.delayMay != b.delayMay || a.empty != b.empty || a.pendFail != b.pendFail || a.pendOK != b.pendOK || a.ownType != b.ownType || a.delayVal != b.delayVal ||
		len(a.slots) != len(b.slots) || len(a.vals) != len(b.vals) || len(a.bools) != len(b.bools) {
		return false
	}
	for _, x := range a.slots {
		y, ok := b.slot(x.key)
		if !ok || x.st != y.st || x.isResp != y.isResp || x.mask != y.mask || x.checked != y.checked || x.accepted != y.accepted || x.carrier != y.carrier {
			return false
		}
	}
	for _, x := range a.vals {
		y, ok := b.val(x.key)
		if !ok || x.v.ExactString() != y.ExactString() {
			return false
		}
	}
	for _, x := range a.bools {
		y, ok := b.boolDef(x.key)
		if !ok || x.expr != y {
			return false
		}
	}
	return true
}

// stateSet is a set of states up to equal.
type stateSet map[uint64][]*state

// add adds s and reports whether no equal state was there.
func (set stateSet) add(s *state) bool {
	h := s.hash()
	for _, t := range set[h] {
		if equal(s, t) {
			return false
		}
	}
	set[h] = append(set[h], s)
	return true
}

// carries reports whether call is an operation whose one result carries
// its outcome in an error field (waits.ErrorField) rather than being an
// error.
func (in *interp) carries(call *ast.CallExpr) bool {
	res := in.results(call)
	return len(res) == 1 && !analysisutil.IsErrorType(res[0]) && !isHTTPResponse(res[0]) && waits.ErrorField(in.pkg, res[0]) != nil
}

// markChecked returns a copy of s in which the response slot k has been
// judged (a predicate given it, a set indexed by its status).
func markChecked(s *state, k any) *state {
	c := s.clone()
	n, _ := c.slot(k)
	n.checked = true
	c.setSlot(n)
	return c
}
