package model

// Evaluation of the constant values a path knows: counters, flags and
// the statuses a response may have.

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// eval evaluates e to a constant using the path's known counters and
// flags, the package's constant-valued variables and Go constants.
func (in *interp) eval(e ast.Expr, s *state) (constant.Value, bool) {
	return in.evalWith(e, s, nil, 0)
}

// evalWith is eval with resp.StatusCode of the response at statusKey
// taken to be code.
func (in *interp) evalWith(e ast.Expr, s *state, statusKey any, code int64) (constant.Value, bool) {
	e = analysisutil.Unparen(e)
	if tv, ok := in.info.Types[e]; ok && tv.Value != nil {
		return tv.Value, true
	}
	switch x := e.(type) {
	case *ast.Ident:
		obj := in.objOf(x)
		if obj == nil {
			return nil, false
		}
		if s != nil {
			if v, ok := s.val(obj); ok {
				return v, true
			}
		}
		if statusKey != nil && in.statusVars[obj] == statusKey {
			return constant.MakeInt64(code), true // a copy of the status
		}
		if v, ok := obj.(*types.Var); ok && in.pkgVals != nil {
			return in.pkgVals(v)
		}
	case *ast.SelectorExpr:
		if statusKey != nil && (x.Sel.Name == "StatusCode" || in.isStatusField(x)) && in.objOf(x.X) == statusKey {
			return constant.MakeInt64(code), true
		}
		if obj, ok := in.info.Uses[x.Sel].(*types.Var); ok && in.pkgVals != nil && !obj.IsField() {
			return in.pkgVals(obj)
		}
	case *ast.UnaryExpr:
		v, ok := in.evalWith(x.X, s, statusKey, code)
		if !ok {
			return nil, false
		}
		switch x.Op {
		case token.SUB, token.ADD, token.XOR:
			if v.Kind() == constant.Int {
				return constant.UnaryOp(x.Op, v, 0), true
			}
		case token.NOT:
			if v.Kind() == constant.Bool {
				return constant.UnaryOp(x.Op, v, 0), true
			}
		}
	case *ast.BinaryExpr:
		l, ok := in.evalWith(x.X, s, statusKey, code)
		if !ok {
			// false && _, true || _
			if x.Op == token.LAND || x.Op == token.LOR {
				return nil, false
			}
			return nil, false
		}
		if x.Op == token.LAND && l.Kind() == constant.Bool && !constant.BoolVal(l) {
			return l, true
		}
		if x.Op == token.LOR && l.Kind() == constant.Bool && constant.BoolVal(l) {
			return l, true
		}
		r, ok := in.evalWith(x.Y, s, statusKey, code)
		if !ok {
			return nil, false
		}
		return binaryOp(l, x.Op, r)
	case *ast.CallExpr:
		if statusKey != nil && in.statusMethod(x) && in.objOf(analysisutil.Unparen(x.Fun).(*ast.SelectorExpr).X) == statusKey {
			return constant.MakeInt64(code), true // se.HTTPStatusCode()
		}
		// Conversions: int(x), time.Duration(x).
		if tv, ok := in.info.Types[x.Fun]; ok && tv.IsType() && len(x.Args) == 1 {
			return in.evalWith(x.Args[0], s, statusKey, code)
		}
		if id, ok := analysisutil.Unparen(x.Fun).(*ast.Ident); ok {
			if b, ok := in.info.Uses[id].(*types.Builtin); ok && (b.Name() == "min" || b.Name() == "max") && len(x.Args) > 0 {
				var best constant.Value
				for _, a := range x.Args {
					v, ok := in.evalWith(a, s, statusKey, code)
					if !ok || v.Kind() != constant.Int && v.Kind() != constant.Float {
						return nil, false
					}
					if best == nil || (b.Name() == "min") == constant.Compare(v, token.LSS, best) {
						best = v
					}
				}
				return best, true
			}
		}
	}
	return nil, false
}

// binaryOp applies op without panicking on mismatched kinds, division by
// zero or huge shifts.
func binaryOp(l constant.Value, op token.Token, r constant.Value) (constant.Value, bool) {
	if l == nil || r == nil || l.Kind() == constant.Unknown || r.Kind() == constant.Unknown {
		return nil, false
	}
	switch op {
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
		if !comparableKinds(l, r) {
			return nil, false
		}
		return constant.MakeBool(constant.Compare(l, op, r)), true
	case token.LAND, token.LOR:
		if l.Kind() != constant.Bool || r.Kind() != constant.Bool {
			return nil, false
		}
		return constant.BinaryOp(l, op, r), true
	case token.SHL, token.SHR:
		if l.Kind() != constant.Int || r.Kind() != constant.Int {
			return nil, false
		}
		n, exact := constant.Uint64Val(r)
		if !exact || n > 512 {
			return nil, false
		}
		return constant.Shift(l, op, uint(n)), true
	case token.ADD, token.SUB, token.MUL, token.QUO, token.REM, token.AND, token.OR, token.XOR, token.AND_NOT:
		if !numeric(l) || !numeric(r) {
			if op == token.ADD && l.Kind() == constant.String && r.Kind() == constant.String {
				return constant.BinaryOp(l, op, r), true
			}
			return nil, false
		}
		if (op == token.QUO || op == token.REM) && constant.Sign(r) == 0 {
			return nil, false
		}
		if op == token.QUO && l.Kind() == constant.Int && r.Kind() == constant.Int {
			op = token.QUO_ASSIGN // integer division
		}
		if op == token.REM || op == token.AND || op == token.OR || op == token.XOR || op == token.AND_NOT {
			if l.Kind() != constant.Int || r.Kind() != constant.Int {
				return nil, false
			}
		}
		return constant.BinaryOp(l, op, r), true
	}
	return nil, false
}

func numeric(v constant.Value) bool {
	return v.Kind() == constant.Int || v.Kind() == constant.Float
}

func comparableKinds(l, r constant.Value) bool {
	if numeric(l) && numeric(r) {
		return true
	}
	return l.Kind() == r.Kind() && l.Kind() != constant.Complex
}
