package model

import (
	"go/ast"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// A loop whose first operation hands out the next item of a stream (a
// method given nothing but contexts: a stream's Recv, a listener's
// Accept, an iterator's Next) and whose later step fails on that item
// (parsing the message, identifying the peer) goes round to fetch the
// next item: it skips the one it could not handle and sends nothing
// again. Such a path is the fetch's success going round, as in a resume
// loop (resumeSeen.skipsItem), and makes the loop no retry. It stays a
// retry's failure when the later step is also given a value from
// outside the pass (the caller's request: going round resends it), when
// the later step goes to the fetch's own receiver (an index, then the
// record at it, from one store: going round asks the same dependency
// the same two questions), and whenever the fetch is given an argument
// (a key: calling it again fetches the same record).

// skipsItemOf reports whether the failing path t skips the item the
// loop's first operation handed out: the first operation is a next-item
// call that succeeded on t, and every operation that failed on t was
// given that item (a value derived from its results in this pass, as
// receiver or argument) and nothing else but contexts and constants.
func (in *interp) skipsItemOf(t *state, rs *resumeSeen, nodes []ast.Node) bool {
	if !rs.skipsItem(t) || !in.nextItem(rs.first) {
		return false
	}
	if rs.items == nil {
		rs.items = in.itemVars(rs.first, nodes)
	}
	failed := false
	for _, sl := range t.slots {
		if st := sl.status(); st != stFailed && st != stChecked {
			continue
		}
		if sl.op == nil || sl.op == rs.first || !in.onItem(sl.op, rs.items) || in.sameReceiver(sl.op, rs.first) {
			return false
		}
		failed = true
	}
	return failed
}

// nextItem reports whether call is a method call given only contexts
// that returns a value and an error: each call hands out the next item
// of its receiver, not an answer to a request the caller made.
func (in *interp) nextItem(call *ast.CallExpr) bool {
	if call == nil {
		return false
	}
	if _, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr); !ok {
		return false
	}
	fn := analysisutil.Callee(in.info, call)
	if fn == nil {
		return false
	}
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil || sig.Results().Len() < 2 || !analysisutil.IsErrorType(sig.Results().At(sig.Results().Len()-1).Type()) {
		return false
	}
	for _, a := range call.Args {
		if !analysisutil.IsNamedType(in.info.TypeOf(a), "context", "Context") {
			return false
		}
	}
	return true
}

// itemVars returns the variables that hold the results of first (not
// its error) or values derived from them in the loop's syntax, outside
// function literals.
func (in *interp) itemVars(first *ast.CallExpr, nodes []ast.Node) map[types.Object]bool {
	items := map[types.Object]bool{}
	mentions := func(e ast.Node) bool {
		found := false
		ast.Inspect(e, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && items[in.info.Uses[id]] {
				found = true
			}
			return !found
		})
		return found
	}
	add := func(lhs []ast.Expr) bool {
		grew := false
		for _, l := range lhs {
			id, ok := analysisutil.Unparen(l).(*ast.Ident)
			if !ok {
				continue
			}
			obj := in.info.ObjectOf(id)
			if obj == nil || items[obj] || analysisutil.IsErrorType(obj.Type()) {
				continue
			}
			items[obj] = true
			grew = true
		}
		return grew
	}
	// Two passes in source order: values flow forward within a pass, and
	// the second carries what the end of a pass hands to its start.
	for range 2 {
		grew := false
		analysisutil.AnyIn(nodes, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.AssignStmt:
				for _, r := range x.Rhs {
					if analysisutil.Unparen(r) == first || mentions(r) {
						grew = add(x.Lhs) || grew
						break
					}
				}
			case *ast.RangeStmt:
				if mentions(x.X) {
					grew = add([]ast.Expr{x.Key, x.Value}) || grew
				}
			}
			return false
		})
		if !grew {
			break
		}
	}
	return items
}

// onItem reports whether call is given the item: its receiver or some
// argument derives from it, and every other argument is a context or a
// constant.
func (in *interp) onItem(call *ast.CallExpr, items map[types.Object]bool) bool {
	derives := func(e ast.Node) bool {
		derived := false
		ast.Inspect(e, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && items[in.info.Uses[id]] {
				derived = true
			}
			return !derived
		})
		return derived
	}
	on := false
	if sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr); ok && derives(sel.X) {
		on = true // c.Handshake(ctx) of the connection accepted
	}
	for _, a := range call.Args {
		switch {
		case derives(a):
			on = true
		case analysisutil.IsNamedType(in.info.TypeOf(a), "context", "Context"):
		case in.info.Types[a].Value != nil:
		default:
			return false
		}
	}
	return on
}

// sameReceiver reports whether a and b are method calls on the same
// variable or field.
func (in *interp) sameReceiver(a, b *ast.CallExpr) bool {
	recv := func(c *ast.CallExpr) types.Object {
		sel, ok := analysisutil.Unparen(c.Fun).(*ast.SelectorExpr)
		if !ok {
			return nil
		}
		switch x := analysisutil.Unparen(sel.X).(type) {
		case *ast.Ident:
			return in.info.Uses[x]
		case *ast.SelectorExpr:
			return in.info.Uses[x.Sel]
		}
		return nil
	}
	ra := recv(a)
	return ra != nil && ra == recv(b)
}
