package model

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// statusGuarded reports whether the node at the end of path runs only
// after the status of a response in opResps (an *http.Response an
// operation returned) was found to be one an outage or an overload gives
// (408, 425, 429, 5xx but 501; httpRetryable): inside the body of an if
// whose condition, or a conjunct of it, tests for one (resp.StatusCode ==
// http.StatusBadGateway, >= 500, != http.StatusOK) or calls a predicate
// of the package that does (predicatesFailStatus; decls holds the
// package's declarations), or inside a case of a switch on the status
// that lists one. A recursive retry's self-call on a 502 is a retry as
// one on err != nil is.
func statusGuarded(info *types.Info, decls map[*types.Func]*ast.FuncDecl, path *callPath, opResps map[types.Object]bool) bool {
	if len(opResps) == 0 {
		return false
	}
	for parent, child := range path.up {
		switch p := parent.(type) {
		case *ast.IfStmt:
			if child == p.Body && (testsFailStatus(info, p.Cond, opResps) || predicatesFailStatus(info, decls, p.Cond, opResps)) {
				return true
			}
		case *ast.CaseClause:
			for _, e := range p.List {
				if testsFailStatus(info, e, opResps) {
					return true // switch { case resp.StatusCode >= 500: }
				}
			}
		}
	}
	// switch resp.StatusCode { case http.StatusBadGateway: ... }: the
	// case is the parent of the statements; its switch, of the case's
	// block.
	var clause *ast.CaseClause
	for parent := range path.up {
		if cc, ok := parent.(*ast.CaseClause); ok && clause == nil {
			clause = cc
			continue
		}
		if sw, ok := parent.(*ast.SwitchStmt); ok && clause != nil {
			if sw.Tag != nil && isRespStatus(info, sw.Tag, opResps) {
				for _, e := range clause.List {
					if c, ok := intConst(info, e); ok && httpRetryable(c) {
						return true
					}
				}
			}
			clause = nil
		}
	}
	return false
}

// predicatesFailStatus reports whether cond is a call of a predicate of
// the package given an operation's response (`retryable(resp)`) whose
// every return is a test that holds only for statuses of which some is
// an outage's (or several joined by ||), false, or true right under an
// if on such a test: true means the response failed.
func predicatesFailStatus(info *types.Info, decls map[*types.Func]*ast.FuncDecl, cond ast.Expr, opResps map[types.Object]bool) bool {
	call, ok := analysisutil.Unparen(cond).(*ast.CallExpr)
	if !ok {
		return false
	}
	fn := analysisutil.Callee(info, call)
	if fn == nil {
		return false
	}
	d := decls[fn.Origin()]
	sig, _ := fn.Type().(*types.Signature)
	if d == nil || d.Body == nil || sig == nil || sig.Results().Len() != 1 || !types.Identical(sig.Results().At(0).Type(), types.Typ[types.Bool]) {
		return false
	}
	params := map[types.Object]bool{}
	for i, a := range call.Args {
		if id, ok := analysisutil.Unparen(a).(*ast.Ident); ok && opResps[info.Uses[id]] && i < sig.Params().Len() {
			params[sig.Params().At(i)] = true
		}
	}
	if len(params) == 0 {
		return false
	}
	var failTest func(e ast.Expr) bool
	failTest = func(e ast.Expr) bool {
		if be, ok := analysisutil.Unparen(e).(*ast.BinaryExpr); ok && be.Op == token.LOR {
			return failTest(be.X) && failTest(be.Y)
		}
		if tv, ok := info.Types[e]; ok && tv.Value != nil && tv.Value.Kind() == constant.Bool {
			return !constant.BoolVal(tv.Value)
		}
		return testsFailStatus(info, e, params)
	}
	isTrue := func(e ast.Expr) bool {
		tv, ok := info.Types[e]
		return ok && tv.Value != nil && tv.Value.Kind() == constant.Bool && constant.BoolVal(tv.Value)
	}
	// Every return gives a failure test, false, or true under an if
	// whose condition is a failure test (`if resp.StatusCode == 429 {
	// return true }`).
	returns := 0
	var list func([]ast.Stmt) bool
	list = func(stmts []ast.Stmt) bool {
		for _, st := range stmts {
			switch x := st.(type) {
			case *ast.ReturnStmt:
				returns++
				if len(x.Results) != 1 || !failTest(x.Results[0]) {
					return false
				}
			case *ast.IfStmt:
				if x.Init == nil && len(x.Body.List) == 1 && failTest(x.Cond) {
					if r, ok := x.Body.List[0].(*ast.ReturnStmt); ok && len(r.Results) == 1 && isTrue(r.Results[0]) {
						returns++
						if x.Else != nil && !list([]ast.Stmt{x.Else}) {
							return false
						}
						continue
					}
				}
				if !list(x.Body.List) || x.Else != nil && !list([]ast.Stmt{x.Else}) {
					return false
				}
			case *ast.BlockStmt:
				if !list(x.List) {
					return false
				}
			default:
				if analysisutil.AnyIn([]ast.Node{st}, func(n ast.Node) bool { _, ok := n.(*ast.ReturnStmt); return ok }) {
					return false // a return in a loop, a switch: not followed
				}
			}
		}
		return true
	}
	return list(d.Body.List) && returns > 0
}

// testsFailStatus reports whether cond, or a conjunct of it, holds only
// for statuses of which some is an outage's: `resp.StatusCode == 502`,
// `>= 500`, `> 499`, `!= 200`.
func testsFailStatus(info *types.Info, cond ast.Expr, opResps map[types.Object]bool) bool {
	be, ok := analysisutil.Unparen(cond).(*ast.BinaryExpr)
	if !ok {
		return false
	}
	if be.Op == token.LAND {
		return testsFailStatus(info, be.X, opResps) || testsFailStatus(info, be.Y, opResps)
	}
	op, x, y := be.Op, be.X, be.Y
	if !isRespStatus(info, x, opResps) {
		// 500 <= resp.StatusCode: the same test, sides swapped.
		x, y = y, x
		switch op {
		case token.LSS:
			op = token.GTR
		case token.LEQ:
			op = token.GEQ
		case token.GTR:
			op = token.LSS
		case token.GEQ:
			op = token.LEQ
		}
	}
	if !isRespStatus(info, x, opResps) {
		return false
	}
	c, ok := intConst(info, y)
	if !ok {
		return false
	}
	switch op {
	case token.EQL:
		return httpRetryable(c)
	case token.NEQ:
		return httpSuccess(c)
	case token.GEQ:
		return c >= 400 && c <= 500
	case token.GTR:
		return c >= 399 && c < 500
	}
	return false
}

// isRespStatus reports whether e reads the StatusCode field of a
// response in opResps.
func isRespStatus(info *types.Info, e ast.Expr, opResps map[types.Object]bool) bool {
	sel, ok := analysisutil.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	s := info.Selections[sel]
	if s == nil || s.Kind() != types.FieldVal || s.Obj().Name() != "StatusCode" || !isHTTPResponse(s.Recv()) && !isHTTPResponse(analysisutil.Deref(s.Recv())) {
		return false
	}
	id, ok := analysisutil.Unparen(sel.X).(*ast.Ident)
	return ok && opResps[info.Uses[id]]
}

// intConst returns the constant integer value of e.
func intConst(info *types.Info, e ast.Expr) (int64, bool) {
	tv, ok := info.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(tv.Value)
}
