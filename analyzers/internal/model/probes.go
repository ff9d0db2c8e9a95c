package model

import (
	"go/ast"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
)

// probe reports whether every attempt of a retry whose syntax is ops
// only asks whether the dependency answers: each operation the attempt
// runs hands back something it opens (a connection, a session) that the
// attempt declares and then does nothing with but close, next to its
// error:
//
//	conn, err := p.dial(ctx)
//	if err != nil { time.Sleep(time.Second); continue }
//	conn.Close()
//	return
//
// Opening and closing at once leaves nothing behind on either side: the
// loop learns when the dependency is back and no work is done. An
// operation that returns only an error (a lock taken, a message sent),
// or a value put to any other use (a response read, a connection kept),
// is work, and the loop is no probe.
func (in *interp) probe(ops []ast.Node) bool {
	opened := map[*types.Var]bool{} // results opened by an operation
	lhs := map[*ast.Ident]bool{}    // where the operations assign them
	handled := map[*ast.CallExpr]bool{}
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
				if in.closesOpened(call, opened) {
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
					id, isID := n.Lhs[i].(*ast.Ident)
					if !isID {
						ok = false
						return false
					}
					if id.Name == "_" {
						continue
					}
					v, isVar := in.info.Defs[id].(*types.Var)
					if !isVar {
						// `var c net.Conn` in the attempt, then `c, err =
						// dial()`: still the attempt's own.
						v, isVar = in.info.Uses[id].(*types.Var)
					}
					if !isVar || !declaredIn(v, ops) {
						// assigned to a variable declared outside the
						// attempt: it may be kept.
						ok = false
						return false
					}
					opened[v] = true
					lhs[id] = true
					opens = true
				}
				if !opens {
					ok = false // work: nothing opened, or all of it dropped
					return false
				}
			case *ast.CallExpr:
				if in.isOp(n) && !handled[n] && !in.closesOpened(n, opened) {
					ok = false
					return false
				}
			}
			return true
		})
	}
	if !ok || len(opened) == 0 {
		return false
	}
	// Every use of an opened value is the receiver of its Close.
	closes := map[*ast.Ident]bool{}
	for _, n := range ops {
		ast.Inspect(n, func(n ast.Node) bool {
			call, isCall := n.(*ast.CallExpr)
			if !isCall {
				return true
			}
			if in.closesOpened(call, opened) {
				closes[call.Fun.(*ast.SelectorExpr).X.(*ast.Ident)] = true
			}
			return true
		})
	}
	used := true
	for _, n := range ops {
		ast.Inspect(n, func(n ast.Node) bool {
			if id, isID := n.(*ast.Ident); isID && opened[asVar(in.info.Uses[id])] && !closes[id] && !lhs[id] {
				used = false
			}
			return used
		})
	}
	return used && len(closes) > 0
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
