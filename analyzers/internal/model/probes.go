package model

import (
	"go/ast"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
)

// probe reports whether every attempt of a retry whose syntax is ops
// only asks whether the dependency answers:
//
//	conn, err := p.dial(ctx)
//	if err != nil { time.Sleep(time.Second); continue }
//	conn.Close()
//	return
//
// Each operation the attempt runs is one of:
//   - an opening: it hands back something it opens (a connection, a
//     session) that the attempt declares and then does nothing with but
//     close, next to its error;
//   - a status probe: an HTTP request of a safe method (GET, HEAD,
//     OPTIONS) with no body, whose response the attempt declares and
//     reads nothing of but its status (closing its body);
//   - a ping: a call of a catalog Probe row (database/sql's Ping) or of
//     a function of the package that asks only so (ProbeFact).
//
// Opening and closing at once, or asking for a status, leaves nothing
// behind on either side: the loop learns when the dependency is back and
// no work is done. An operation that returns only an error (a lock
// taken, a message sent), a request with a body or of another method,
// or a value put to any other use (a response read, a connection kept),
// is work, and the loop is no probe.
func (in *interp) probe(ops []ast.Node) bool {
	opened := map[*types.Var]bool{}   // results opened by an operation
	statuses := map[*types.Var]bool{} // responses of status probes
	lhs := map[*ast.Ident]bool{}      // where the operations assign them
	handled := map[*ast.CallExpr]bool{}
	asked := false // some operation is a status probe or a ping
	ok := true
	for _, n := range ops {
		ast.Inspect(n, func(n ast.Node) bool {
			if !ok {
				return false
			}
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.AssignStmt:
				call, isCall := n.Rhs[0].(*ast.CallExpr)
				if len(n.Rhs) != 1 || !isCall || !in.isOp(call) {
					return true
				}
				handled[call] = true
				switch {
				case in.closesOpened(call, opened):
					return true
				case in.safeRequest(call):
					return true // built, not sent: the send is judged
				case in.asks != nil && in.asks(call):
					asked = true
					return true
				case in.statusSend(call, ops):
					v := in.assigned(n, 0, ops)
					if v == nil {
						ok = false
						return false
					}
					statuses[v], lhs[n.Lhs[0].(*ast.Ident)] = true, true
					asked = true
					return true
				}
				res := in.results(call)
				if len(res) != len(n.Lhs) {
					ok = false
					return false
				}
				opens := false
				for i, t := range res {
					if analysisutil.IsErrorType(t) {
						continue
					}
					if id, isID := n.Lhs[i].(*ast.Ident); isID && id.Name == "_" {
						continue
					}
					v := in.assigned(n, i, ops)
					if v == nil {
						ok = false
						return false
					}
					opened[v] = true
					lhs[n.Lhs[i].(*ast.Ident)] = true
					opens = true
				}
				if !opens {
					ok = false // work: nothing opened, or all of it dropped
					return false
				}
			case *ast.CallExpr:
				if !in.isOp(n) || handled[n] || in.closesOpened(n, opened) {
					return true
				}
				if in.asks != nil && in.asks(n) {
					asked = true
					return true
				}
				ok = false
				return false
			}
			return true
		})
	}
	if !ok || len(opened) == 0 && !asked {
		return false
	}
	// Every use of an opened value is the receiver of its Close; every
	// use of a probe's response reads its status or closes its body.
	closes := map[*ast.Ident]bool{}
	reads := map[*ast.Ident]bool{}
	for _, n := range ops {
		ast.Inspect(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				if in.closesOpened(n, opened) {
					closes[n.Fun.(*ast.SelectorExpr).X.(*ast.Ident)] = true
				}
				if id := in.bodyClosed(n, statuses); id != nil {
					reads[id] = true
				}
			case *ast.SelectorExpr:
				if id, isID := n.X.(*ast.Ident); isID && statuses[asVar(in.info.Uses[id])] && (n.Sel.Name == "StatusCode" || n.Sel.Name == "Status") {
					reads[id] = true
				}
			case *ast.BinaryExpr:
				for _, id := range []ast.Expr{n.X, n.Y} {
					if id, isID := id.(*ast.Ident); isID && statuses[asVar(in.info.Uses[id])] && isNilIdent(in.info, otherSide(n, id)) {
						reads[id] = true
					}
				}
			}
			return true
		})
	}
	used := true
	for _, n := range ops {
		ast.Inspect(n, func(n ast.Node) bool {
			if id, isID := n.(*ast.Ident); isID && !lhs[id] {
				v := asVar(in.info.Uses[id])
				if opened[v] && !closes[id] || statuses[v] && !reads[id] {
					used = false
				}
			}
			return used
		})
	}
	return used && (len(opened) == 0 || len(closes) > 0)
}

// assigned returns the variable that the i-th left-hand side of the
// operation's assignment a declares in the attempt (ops), or nil when it
// is no identifier or outlives the attempt (a value it may keep).
func (in *interp) assigned(a *ast.AssignStmt, i int, ops []ast.Node) *types.Var {
	id, isID := a.Lhs[i].(*ast.Ident)
	if !isID || id.Name == "_" {
		return nil
	}
	v, isVar := in.info.Defs[id].(*types.Var)
	if !isVar {
		// `var c net.Conn` in the attempt, then `c, err = dial()`:
		// still the attempt's own.
		v, isVar = in.info.Uses[id].(*types.Var)
	}
	if !isVar || !declaredIn(v, ops) {
		return nil
	}
	return v
}

// otherSide returns the operand of the comparison b that is not x.
func otherSide(b *ast.BinaryExpr, x ast.Expr) ast.Expr {
	if b.X == x {
		return b.Y
	}
	return b.X
}

// closesOpened reports whether call is x.Close() on a value the attempt
// opened.
func (in *interp) closesOpened(call *ast.CallExpr, opened map[*types.Var]bool) bool {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || len(call.Args) != 0 {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && opened[asVar(in.info.Uses[id])] && isCloser(in.info, sel)
}

// declaredIn reports whether v is declared inside one of nodes.
func declaredIn(v *types.Var, nodes []ast.Node) bool {
	for _, n := range nodes {
		if n.Pos() <= v.Pos() && v.Pos() < n.End() {
			return true
		}
	}
	return false
}

func asVar(obj types.Object) *types.Var {
	v, _ := obj.(*types.Var)
	return v
}

// isCloser reports whether sel selects a method with io.Closer's
// signature, Close() error.
func isCloser(info *types.Info, sel *ast.SelectorExpr) bool {
	s := info.Selections[sel]
	closer := catalog.Lookup(catalog.IO, "Closer", "Close") // a NotOperation row: a protocol, by name
	if s == nil || s.Kind() != types.MethodVal || closer == nil || s.Obj().Name() != closer.Name {
		return false
	}
	sig, ok := s.Obj().Type().(*types.Signature)
	return ok && sig.Params().Len() == 0 && sig.Results().Len() == 1 && analysisutil.IsErrorType(sig.Results().At(0).Type())
}
