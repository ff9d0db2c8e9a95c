package model

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// passesDiffer reports whether a loop with a constant number of passes
// changes what it sends by the pass it is in, so that no two passes send
// the same request: `for i := range 2 { ...; if i == 0 {
// req.Header.Set("Range", "bytes=0-1") }; rt.RoundTrip(req) }` asks for
// a byte range first and for the whole resource after, a fallback
// rather than a retry. Each test of the counter against a constant whose
// branch changes an operation's input (writes a variable passed to it,
// or calls a method on one) or makes the operation is evaluated for
// every pass; the passes differ when no two of them take the same
// branches. With three passes and `if i == 0`, the last two send the
// same request: a retry.
func (m *builder) passesDiffer(stmt ast.Stmt, nodes []ast.Node, ops []*ast.CallExpr) bool {
	info := m.pass.TypesInfo
	counter, first, n := constantPasses(info, stmt)
	if counter == nil || n < 2 || n > 8 {
		return false
	}
	// The variables an operation is given, and its receivers.
	inputs := map[types.Object]bool{}
	for _, call := range ops {
		if sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr); ok {
			if obj := rootObj(info, sel.X); obj != nil {
				inputs[obj] = true
			}
		}
		for _, a := range call.Args {
			if obj := rootObj(info, a); obj != nil {
				inputs[obj] = true
			}
		}
	}
	isOp := map[*ast.CallExpr]bool{}
	for _, c := range ops {
		isOp[c] = true
	}
	// changes reports whether a branch writes an input or makes an
	// operation.
	changes := func(b ast.Node) bool {
		found := false
		ast.Inspect(b, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.AssignStmt:
				for _, l := range x.Lhs {
					if obj := rootObj(info, l); obj != nil && inputs[obj] && x.Tok != token.DEFINE {
						found = true
					}
				}
			case *ast.CallExpr:
				if isOp[x] {
					found = true
				}
				if sel, ok := analysisutil.Unparen(x.Fun).(*ast.SelectorExpr); ok {
					if _, isMethod := info.Selections[sel]; isMethod {
						if obj := rootObj(info, sel.X); obj != nil && inputs[obj] {
							found = true
						}
					}
				}
			}
			return !found
		})
		return found
	}
	var conds []ast.Expr
	assigned := false
	for _, root := range nodes {
		ast.Inspect(root, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.IfStmt:
				if testsCounter(info, x.Cond, counter) && (changes(x.Body) || x.Else != nil && changes(x.Else)) {
					conds = append(conds, x.Cond)
				}
			case *ast.AssignStmt:
				for _, l := range x.Lhs {
					if id, ok := analysisutil.Unparen(l).(*ast.Ident); ok && info.Uses[id] == counter {
						assigned = true
					}
				}
			case *ast.IncDecStmt:
				if id, ok := analysisutil.Unparen(x.X).(*ast.Ident); ok && info.Uses[id] == counter {
					if fs, ok := stmt.(*ast.ForStmt); !ok || ast.Node(fs.Post) != ast.Node(x) {
						assigned = true
					}
				}
			}
			return true
		})
	}
	if assigned || len(conds) == 0 {
		return false
	}
	seen := map[string]bool{}
	for p := first; p < first+n; p++ {
		key := ""
		for _, c := range conds {
			v, ok := evalCounterTest(info, c, counter, p)
			if !ok {
				return false
			}
			if v {
				key += "t"
			} else {
				key += "f"
			}
		}
		if seen[key] {
			return false
		}
		seen[key] = true
	}
	return true
}

// constantPasses returns the counter of a loop that runs a constant
// number of passes — `for i := range n`, `for i := a; i < b; i++`, `for
// i := a; i <= b; i++` with constants — its first value and the number
// of passes.
func constantPasses(info *types.Info, stmt ast.Stmt) (types.Object, int64, int64) {
	switch st := stmt.(type) {
	case *ast.RangeStmt:
		id, ok := analysisutil.Unparen(st.Key).(*ast.Ident)
		if !ok || st.Value != nil || info.Defs[id] == nil {
			return nil, 0, 0
		}
		tv := info.Types[st.X]
		if tv.Value == nil || tv.Value.Kind() != constant.Int {
			return nil, 0, 0
		}
		n, ok := constant.Int64Val(tv.Value)
		if !ok {
			return nil, 0, 0
		}
		return info.Defs[id], 0, n
	case *ast.ForStmt:
		init, ok := st.Init.(*ast.AssignStmt)
		if !ok || init.Tok != token.DEFINE || len(init.Lhs) != 1 || len(init.Rhs) != 1 {
			return nil, 0, 0
		}
		id, ok := analysisutil.Unparen(init.Lhs[0]).(*ast.Ident)
		if !ok || info.Defs[id] == nil {
			return nil, 0, 0
		}
		counter := info.Defs[id]
		start, ok := intConst(info, init.Rhs[0])
		if !ok {
			return nil, 0, 0
		}
		inc, ok := st.Post.(*ast.IncDecStmt)
		if !ok || inc.Tok != token.INC {
			return nil, 0, 0
		}
		if pid, ok := analysisutil.Unparen(inc.X).(*ast.Ident); !ok || info.Uses[pid] != counter {
			return nil, 0, 0
		}
		be, ok := analysisutil.Unparen(st.Cond).(*ast.BinaryExpr)
		if !ok {
			return nil, 0, 0
		}
		if cid, ok := analysisutil.Unparen(be.X).(*ast.Ident); !ok || info.Uses[cid] != counter {
			return nil, 0, 0
		}
		limit, ok := intConst(info, be.Y)
		if !ok {
			return nil, 0, 0
		}
		switch be.Op {
		case token.LSS:
			return counter, start, limit - start
		case token.LEQ:
			return counter, start, limit - start + 1
		}
	}
	return nil, 0, 0
}

// testsCounter reports whether cond compares counter with a constant,
// alone or joined with others such comparisons by && and ||.
func testsCounter(info *types.Info, cond ast.Expr, counter types.Object) bool {
	switch x := analysisutil.Unparen(cond).(type) {
	case *ast.BinaryExpr:
		switch x.Op {
		case token.LAND, token.LOR:
			return testsCounter(info, x.X, counter) && testsCounter(info, x.Y, counter)
		case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
			id, ok := analysisutil.Unparen(x.X).(*ast.Ident)
			_, isConst := intConst(info, x.Y)
			return ok && info.Uses[id] == counter && isConst
		}
	}
	return false
}

// evalCounterTest evaluates a test testsCounter accepted with the counter
// at p.
func evalCounterTest(info *types.Info, cond ast.Expr, counter types.Object, p int64) (bool, bool) {
	x, ok := analysisutil.Unparen(cond).(*ast.BinaryExpr)
	if !ok {
		return false, false
	}
	switch x.Op {
	case token.LAND, token.LOR:
		a, ok1 := evalCounterTest(info, x.X, counter, p)
		b, ok2 := evalCounterTest(info, x.Y, counter, p)
		if x.Op == token.LAND {
			return a && b, ok1 && ok2
		}
		return a || b, ok1 && ok2
	}
	k, ok := intConst(info, x.Y)
	if !ok {
		return false, false
	}
	return constant.Compare(constant.MakeInt64(p), x.Op, constant.MakeInt64(k)), true
}

// rootObj returns the variable an expression selects, indexes or takes
// the address of: req for req.Header, &req, reqs[i].
func rootObj(info *types.Info, e ast.Expr) types.Object {
	for {
		switch x := analysisutil.Unparen(e).(type) {
		case *ast.Ident:
			if v, ok := info.Uses[x].(*types.Var); ok {
				return v
			}
			return nil
		case *ast.SelectorExpr:
			if _, ok := info.Selections[x]; !ok {
				return nil // pkg.Name
			}
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.UnaryExpr:
			if x.Op != token.AND {
				return nil
			}
			e = x.X
		default:
			return nil
		}
	}
}
