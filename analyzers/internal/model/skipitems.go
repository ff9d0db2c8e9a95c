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
	if !rs.firstNext || !rs.skipsItem(t) {
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
// its error) or values made from them alone (itemReads) in the loop's
// syntax, outside function literals.
func (in *interp) itemVars(first *ast.CallExpr, nodes []ast.Node) map[types.Object]bool {
	items := map[types.Object]bool{}
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
	// fromItem: every value assigned is made from the item alone.
	fromItem := func(rhs []ast.Expr) bool {
		some := false
		for _, r := range rhs {
			if analysisutil.Unparen(r) == first {
				return true
			}
			reads, clean := in.itemReads(r, items)
			if !clean {
				return false
			}
			some = some || reads
		}
		return some
	}
	// Two passes in source order: values flow forward within a pass, and
	// the second carries what the end of a pass hands to its start.
	for range 2 {
		grew := false
		analysisutil.AnyIn(nodes, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.AssignStmt:
				if fromItem(x.Rhs) {
					grew = add(x.Lhs) || grew
				}
			case *ast.RangeStmt:
				if fromItem([]ast.Expr{x.X}) {
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

// itemReads reports whether e reads the item (a variable of items), and
// whether it reads nothing else the pass did not get from it: no other
// variable but contexts (constants, functions, types and the fields of
// what it reads are no input), the receivers of the methods it calls
// left aside (the handler a value is given to, not an input of it;
// `conn.URL()` reads the item all the same). `conn.URL() + path` with
// `path` made from the caller's options reads something else.
func (in *interp) itemReads(e ast.Expr, items map[types.Object]bool) (reads, clean bool) {
	clean = true
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		if !clean {
			return false
		}
		switch x := n.(type) {
		case *ast.FuncLit:
			clean = false // a closure reads whatever it captures
			return false
		case *ast.CallExpr:
			if sel, ok := analysisutil.Unparen(x.Fun).(*ast.SelectorExpr); ok {
				if s := in.info.Selections[sel]; s != nil && s.Kind() == types.MethodVal {
					if r, _ := in.itemReads(sel.X, items); r {
						reads = true
					}
					for _, a := range x.Args {
						ast.Inspect(a, visit)
					}
					return false
				}
			}
		case *ast.SelectorExpr:
			ast.Inspect(x.X, visit) // x.Sel is a field, a method or a package's member
			return false
		case *ast.Ident:
			v, ok := in.info.Uses[x].(*types.Var)
			switch {
			case !ok:
			case items[v]:
				reads = true
			case analysisutil.IsNamedType(v.Type(), "context", "Context"):
			default:
				clean = false
			}
		}
		return clean
	}
	ast.Inspect(e, visit)
	return reads, clean
}

// onItem reports whether call is given the item: its receiver or some
// argument reads it (itemReads), and no argument reads anything else.
func (in *interp) onItem(call *ast.CallExpr, items map[types.Object]bool) bool {
	on := false
	if sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if r, _ := in.itemReads(sel.X, items); r {
			on = true // c.Handshake(ctx) of the connection accepted
		}
	}
	for _, a := range call.Args {
		reads, clean := in.itemReads(a, items)
		if !clean {
			return false
		}
		on = on || reads
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
