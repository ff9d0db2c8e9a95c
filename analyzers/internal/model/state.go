package model

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/types"
	"sort"
	"strings"
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
var httpSamples = [...]int64{200, 201, 204, 301, 304, 400, 401, 403, 404, 408, 409, 422, 425, 429, 500, 501, 502, 503, 504}

const fullMask = uint32(1)<<len(httpSamples) - 1

func httpSuccess(code int64) bool { return code < 400 }
func httpRetryable(code int64) bool {
	return code == 408 || code == 425 || code == 429 || code >= 500 && code != 501
}

// maskStatus classifies a set of possible HTTP statuses.
func maskStatus(mask uint32, checked bool) status {
	if mask == fullMask || mask == 0 {
		if checked {
			return stChecked
		}
		return stUnknown
	}
	allGood, allBad, retryable := true, true, false
	for i, code := range httpSamples {
		if mask&(1<<i) == 0 {
			continue
		}
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
	mask    uint32 // possible statuses, for responses
	checked bool   // a response examined by a predicate
	// partials are the operation's other results (bytes read, a page):
	// using one before the operation is known to have succeeded means the
	// loop makes progress with partial results (a read or write loop), not
	// a retry.
	partials []types.Object
	// op is the call that produced the outcome.
	op *ast.CallExpr
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
	opIter     bool // an operation ran in the current iteration
	progress   bool // a partial result of an unsuccessful operation was used in this iteration
	delayed    bool // the path waited (sleep, timer) since its last operation
	boundFork  bool // the path went one way of an undecided test of the loop's bound
	attempts   int  // completed iterations that ran an operation
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
			return
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

// key identifies the state for deduplication; attempts are not part of it
// (paths that differ only in the count are merged, keeping the maximum).
func (s *state) key() string {
	var parts []string
	for _, sl := range s.slots {
		parts = append(parts, fmt.Sprintf("s%p/%d/%v/%x/%v", keyPtr(sl.key), sl.st, sl.isResp, sl.mask, sl.checked))
	}
	for _, v := range s.vals {
		parts = append(parts, fmt.Sprintf("v%p=%s", keyPtr(v.key), v.v.ExactString()))
	}
	for _, b := range s.bools {
		parts = append(parts, fmt.Sprintf("b%p=%p", keyPtr(b.key), keyPtr(b.expr)))
	}
	sort.Strings(parts)
	return fmt.Sprintf("%v%v%v%v%v%v|", s.stickyFail, s.stickyOK, s.opIter, s.progress, s.delayed, s.boundFork) + strings.Join(parts, ",")
}

func keyPtr(k any) any { return k }
