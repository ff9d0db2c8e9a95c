package model

import (
	"go/ast"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// opVerdict is what a path knows of a bool an operation returns just
// before its error (`retry, err = run()`, `r, retry, err = run()`): the
// operation's own answer about its outcome ("go again" or "done"), not a
// partial result. Testing it examines the outcome, direction unknown, as
// a predicate over the error would. The path is marked (state.verdict,
// verdictNo): a retry goes round when the operation says true ("again")
// and leaves when it says false; a path that goes round on false is a
// poll until done (`done, err := check(); if done { return err }`), and
// one that goes round on true without waiting is an iterator's "more"
// (`more, err := it.Next()`): neither retries.
type opVerdict struct {
	err types.Object  // the variable holding the operation's error
	op  *ast.CallExpr // the operation
}

// ownVerdict reports whether result i of an operation bound to lhs is a
// bool given just before its error, or before the wait that goes with it
// and the error (`retry, wait, err := c.shouldRetry(resp, err)`: every
// result between the bool and the error a time.Duration), both assigned.
func ownVerdict(lhs []ast.Expr, res []types.Type, i int) bool {
	n := len(res)
	if n < 2 || i > n-2 || len(lhs) != n || !analysisutil.IsBool(res[i]) || !analysisutil.IsErrorType(res[n-1]) {
		return false
	}
	for _, t := range res[i+1 : n-1] {
		if !analysisutil.IsNamedType(t, "time", "Duration") {
			return false
		}
	}
	id, ok := analysisutil.Unparen(lhs[n-1]).(*ast.Ident)
	return ok && id.Name != "_"
}

// cond splits s by the verdict: both ways the outcome of its operation
// has been examined, if the error variable still holds that outcome.
func (v opVerdict) cond(s *state) (ts, fs []*state) {
	sl, ok := s.slot(v.err)
	if !ok || sl.op != v.op {
		return []*state{s}, []*state{s}
	}
	if sl.status() != stUnknown {
		// Examined already: the bool adds the operation's own word on
		// which failure it was (`if err == nil || !retry`).
		return identify([]*state{s}), identify([]*state{s})
	}
	mark := func(x *state, no bool) []*state {
		x = refine(x, v.err, stChecked)
		if x == nil {
			return nil
		}
		x.verdict, x.verdictNo, x.identified, x.outage = true, no, true, true
		return []*state{x}
	}
	return mark(s, false), mark(s, true)
}

// outcomeOfPass reports whether obj, used by the assignment as, holds
// an outcome of the same pass: an earlier statement of as's own block
// assigned it an operation's results (`resp, err = c.Do(req)` then
// `result, err = handle(resp, err)`). Such an assignment converts this
// pass's outcome; it walks no chain from the previous one. The blocks of
// a loop are indexed once (passIndex), so the question costs no walk.
func (in *interp) outcomeOfPass(nodes []ast.Node, as *ast.AssignStmt, obj types.Object) bool {
	if len(nodes) == 0 {
		return false
	}
	if in.pass == nil || in.pass.root != nodes[0] {
		in.pass = in.indexPass(nodes)
	}
	at, ok := in.pass.stmt[as]
	if !ok {
		return false
	}
	first, ok := in.pass.firstOp[passKey{at.list, obj}]
	return ok && first < at.idx
}

// passIndex indexes the statement lists of one loop: where each
// assignment is, and the first statement of each list that assigns a
// variable an operation's results.
type passIndex struct {
	root    ast.Node
	stmt    map[*ast.AssignStmt]listPos
	firstOp map[passKey]int
}

type listPos struct {
	list int // the list's number in the loop
	idx  int // the statement's index in it
}

type passKey struct {
	list int
	obj  types.Object
}

func (in *interp) indexPass(nodes []ast.Node) *passIndex {
	p := &passIndex{root: nodes[0], stmt: map[*ast.AssignStmt]listPos{}, firstOp: map[passKey]int{}}
	lists := 0
	index := func(list []ast.Stmt) {
		n := lists
		lists++
		for i, st := range list {
			as, ok := st.(*ast.AssignStmt)
			if !ok {
				continue
			}
			p.stmt[as] = listPos{n, i}
			if len(as.Rhs) != 1 {
				continue
			}
			call, ok := analysisutil.Unparen(as.Rhs[0]).(*ast.CallExpr)
			if !ok || !in.isOp(call) {
				continue
			}
			for _, l := range as.Lhs {
				if obj := in.objOf(l); obj != nil {
					k := passKey{n, obj}
					if _, seen := p.firstOp[k]; !seen {
						p.firstOp[k] = i
					}
				}
			}
		}
	}
	for _, root := range nodes {
		ast.Inspect(root, func(n ast.Node) bool {
			switch b := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.BlockStmt:
				index(b.List)
			case *ast.CaseClause:
				index(b.Body)
			case *ast.CommClause:
				index(b.Body)
			}
			return true
		})
	}
	return p
}

// assertOK is what a path knows of the bool of `e, ok := err.(*T)` on an
// operation's error: true says the operation failed with an error of
// that type (identified); false, that it did not (nil, or another error).
type assertOK struct{ key any }

func (a assertOK) cond(s *state) (ts, fs []*state) {
	return identify(nonNil(refine(s, a.key, stFailed))), nonNil(refine(s, a.key, stMaybe))
}
