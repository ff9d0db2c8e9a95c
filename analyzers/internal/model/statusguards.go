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
// http.StatusBadGateway, >= 500, != http.StatusOK), or inside a case of a
// switch on the status that lists one. A recursive retry's self-call on
// a 502 is a retry as one on err != nil is.
func statusGuarded(info *types.Info, path *callPath, opResps map[types.Object]bool) bool {
	if len(opResps) == 0 {
		return false
	}
	for parent, child := range path.up {
		switch p := parent.(type) {
		case *ast.IfStmt:
			if child == p.Body && testsFailStatus(info, p.Cond, opResps) {
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
