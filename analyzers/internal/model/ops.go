package model

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
	"github.com/resilint/resilint/analyzers/internal/model/waits"
)

func (in *interp) results(call *ast.CallExpr) []types.Type { return waits.Results(in.info, call) }

func isHTTPResponse(t types.Type) bool {
	return analysisutil.IsNamedType(t, "net/http", "Response")
}

// isOp reports whether call is a fallible operation (waits.Calls.IsOp).

func (in *interp) isOp(call *ast.CallExpr) bool { return in.calls().IsOp(call) }

var noReturnFuncs = map[string]map[string]bool{
	"os":      {"Exit": true},
	"log":     {"Fatal": true, "Fatalf": true, "Fatalln": true, "Panic": true, "Panicf": true, "Panicln": true},
	"runtime": {"Goexit": true},
}

func (in *interp) noReturn(call *ast.CallExpr) bool {
	if id, ok := analysisutil.Unparen(call.Fun).(*ast.Ident); ok {
		if b, ok := in.info.Uses[id].(*types.Builtin); ok && b.Name() == "panic" {
			return true
		}
	}
	fn := analysisutil.Callee(in.info, call)
	if fn == nil {
		return false
	}
	if names := noReturnFuncs[analysisutil.PkgPath(fn)]; names != nil && names[fn.Name()] {
		return analysisutil.RecvTypeName(fn) == "" || analysisutil.RecvTypeName(fn) == "Logger"
	}
	return analysisutil.PkgPath(fn) == "testing" && catalog.TestEnds[fn.Name()]
}

// mentionsTracked reports whether e refers to a variable holding an
// operation result on this path (or known to hold one in the function).
func (in *interp) mentionsTracked(e ast.Node, s *state) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if found {
			return false
		}
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		if id, ok := n.(*ast.Ident); ok {
			if obj := in.info.Uses[id]; obj != nil {
				if _, ok := s.slot(obj); ok || in.opVars[obj] {
					found = true
				}
			}
		}
		return true
	})
	return found
}

// noteProgress marks the path when stmt reads a partial result of an
// operation not known to have succeeded: `buf = append(buf, line...)`
// before or after `err == bufio.ErrBufferFull`.
func (in *interp) noteProgress(stmt ast.Stmt, s *state) *state {
	if s.progress {
		return s
	}
	// req, err = http.NewRequest(...); resp, err = c.Do(req): a
	// statement that overwrites the error it leaves unchecked treats its
	// operation as done, and uses the other results as a success's.
	var overwritten []types.Object
	if as, ok := stmt.(*ast.AssignStmt); ok {
		for _, l := range as.Lhs {
			if id, ok := analysisutil.Unparen(l).(*ast.Ident); ok && in.info.Uses[id] != nil {
				overwritten = append(overwritten, in.info.Uses[id])
			}
		}
	}
	var pending []types.Object
	for _, sl := range s.slots {
		if len(sl.partials) > 0 && sl.status() != stOK && !(sl.status() == stUnknown && slices.ContainsFunc(overwritten, func(o types.Object) bool { return o == sl.key })) {
			pending = append(pending, sl.partials...)
		}
	}
	if len(pending) == 0 {
		return s
	}
	isPending := func(e ast.Expr) bool {
		if id, ok := analysisutil.Unparen(e).(*ast.Ident); ok {
			return slices.Contains(pending, in.info.Uses[id])
		}
		return false
	}
	var nodes []ast.Node
	switch st := stmt.(type) {
	case *ast.ExprStmt:
		nodes = []ast.Node{st.X}
	case *ast.AssignStmt:
		for _, r := range st.Rhs {
			nodes = append(nodes, r)
		}
		for _, l := range st.Lhs {
			if _, isIdent := analysisutil.Unparen(l).(*ast.Ident); isIdent {
				continue
			}
			if sel, ok := analysisutil.Unparen(l).(*ast.SelectorExpr); ok && isPending(sel.X) {
				continue // r.Val, r.Err = get(): the field is written, nothing of it used
			}
			nodes = append(nodes, l)
		}
	case *ast.IncDecStmt:
		nodes = []ast.Node{st.X}
	case *ast.IfStmt:
		nodes = []ast.Node{st.Cond}
	case *ast.SendStmt:
		nodes = []ast.Node{st.Value}
	case *ast.DeclStmt:
		nodes = []ast.Node{st}
	}
	// next.Abort(), _ = conn.Close(): a statement that only calls a
	// method of the value with no arguments and drops what it returns
	// releases the value; it keeps no data of it.
	var release *ast.CallExpr
	switch st := stmt.(type) {
	case *ast.ExprStmt:
		release, _ = analysisutil.Unparen(st.X).(*ast.CallExpr)
	case *ast.AssignStmt:
		if len(st.Lhs) == 1 && len(st.Rhs) == 1 {
			if id, ok := st.Lhs[0].(*ast.Ident); ok && id.Name == "_" {
				release, _ = analysisutil.Unparen(st.Rhs[0]).(*ast.CallExpr)
			}
		}
	}
	if release != nil {
		if sel, ok := analysisutil.Unparen(release.Fun).(*ast.SelectorExpr); !ok || len(release.Args) != 0 || !isPending(sel.X) {
			release = nil
		}
	}
	// err == nil && sameAddr(conn.RemoteAddr(), ...): what follows a
	// test that the operation succeeded uses a success's result, no
	// partial one.
	succeeded := func(e ast.Expr) []types.Object {
		var out []types.Object
		for _, c := range analysisutil.Split(e, token.LAND) {
			be, ok := analysisutil.Unparen(c).(*ast.BinaryExpr)
			if !ok || be.Op != token.EQL {
				continue
			}
			x := be.X
			if in.isNil(x) {
				x = be.Y
			} else if !in.isNil(be.Y) {
				continue
			}
			if id, ok := analysisutil.Unparen(x).(*ast.Ident); ok {
				if sl, ok := s.slot(in.info.Uses[id]); ok && !sl.isResp {
					out = append(out, sl.partials...)
				}
			}
		}
		return out
	}
	excluded := map[types.Object]bool{}
	used := false
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		if used {
			return false
		}
		if be, ok := n.(*ast.BinaryExpr); ok && be.Op == token.LAND {
			if guarded := succeeded(be.X); len(guarded) > 0 {
				ast.Inspect(be.X, visit)
				var added []types.Object
				for _, o := range guarded {
					if !excluded[o] {
						excluded[o] = true
						added = append(added, o)
					}
				}
				ast.Inspect(be.Y, visit)
				for _, o := range added {
					delete(excluded, o)
				}
				return false
			}
		}
		switch x := n.(type) {
		case *ast.CallExpr:
			// shouldRetry(res, err): a decision about the outcome,
			// no data kept.
			if x == release || in.verdictOn(x, s) != nil || in.outcomeTest(x, s) {
				return false
			}
		case *ast.BinaryExpr:
			// res != nil: asks whether there is a result, uses none.
			if (x.Op == token.EQL || x.Op == token.NEQ) && (isPending(x.X) && in.isNil(x.Y) || isPending(x.Y) && in.isNil(x.X)) {
				return false
			}
		case *ast.SelectorExpr:
			// res.Error: the outcome carried in the result (an error,
			// or a field of a concrete error type), not a partial
			// result; res.Throttle, res.Count: a number about
			// it (for metrics, logs), not data kept.
			if tv, ok := in.info.Types[x]; ok && isPending(x.X) {
				if carriesError(tv.Type) {
					return false
				}
				if b, ok := tv.Type.Underlying().(*types.Basic); ok && b.Info()&(types.IsNumeric|types.IsBoolean) != 0 {
					return false
				}
			}
		}
		if id, ok := n.(*ast.Ident); ok {
			obj := in.info.Uses[id]
			for _, p := range pending {
				if obj == p && !excluded[p] {
					used = true
				}
			}
		}
		return true
	}
	for _, n := range nodes {
		ast.Inspect(n, visit)
	}
	if !used {
		return s
	}
	c := s.clone()
	c.progress = true
	return c
}

// outcomeTest reports whether call is a test of an operation's whole
// outcome: it returns one bool and is given the operation's error with
// other results as they are, no part or number of them (`if
// w.retryOn(resp, err) { continue }`, a predicate held in a field). It
// decides whether to go round; it keeps none of the results, so they
// are no partial results put to use (a read loop would hand on a part
// of its buffer, or a count).
func (in *interp) outcomeTest(call *ast.CallExpr, s *state) bool {
	res := in.results(call)
	if len(res) != 1 || !analysisutil.IsBool(res[0]) {
		return false
	}
	var errSlot *slot
	for _, a := range call.Args {
		if id, ok := analysisutil.Unparen(a).(*ast.Ident); ok && analysisutil.IsErrorType(in.info.TypeOf(id)) {
			if sl, ok := s.slot(in.objOf(id)); ok && sl.op != nil {
				errSlot = &sl
				break
			}
		}
	}
	if errSlot == nil {
		return false
	}
	for _, a := range call.Args {
		id, ok := analysisutil.Unparen(a).(*ast.Ident)
		if !ok {
			part := false
			ast.Inspect(a, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok && slices.Contains(errSlot.partials, in.info.Uses[id]) {
					part = true
				}
				return !part
			})
			if part {
				return false // a part of a result (buf[:n])
			}
			continue
		}
		if obj := in.objOf(id); slices.Contains(errSlot.partials, obj) {
			if b, ok := obj.Type().Underlying().(*types.Basic); ok && b.Info()&types.IsNumeric != 0 {
				return false // a count of what was read
			}
		}
	}
	return true
}
