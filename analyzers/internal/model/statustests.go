package model

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// StatusTestFact is exported for a function of one bool result that
// answers true only for some statuses of the *http.Response it is given
// at Param: `func wantsGrant(r *http.Response) bool { return r.StatusCode
// == 401 && ... }`. Codes lists the sample statuses (httpSamples) for
// which it may answer true. On the true branch of a call of it the
// response has one of them, as on `r.StatusCode == 401` itself.
type StatusTestFact struct {
	Param int
	Codes []int64
}

func (*StatusTestFact) AFact() {}

func (f *StatusTestFact) String() string {
	var b strings.Builder
	for i, c := range f.Codes {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprint(&b, c)
	}
	return fmt.Sprintf("status test(%d: %s)", f.Param, b.String())
}

// findStatusTests computes the package's status tests and exports their
// facts.
func (m *builder) findStatusTests() {
	m.statusTests = map[*types.Func]*StatusTestFact{}
	for fn, d := range m.vals.Decls {
		if f := statusTestOf(m.pass.TypesInfo, fn, d); f != nil {
			m.statusTests[fn] = f
			m.pass.ExportObjectFact(fn, f)
		}
	}
}

// statusTest returns the StatusTestFact of fn, of this package or
// another.
func (m *builder) statusTest(fn *types.Func) *StatusTestFact {
	if fn == nil {
		return nil
	}
	fn = fn.Origin()
	if fn.Pkg() == m.pass.Pkg {
		return m.statusTests[fn]
	}
	var f StatusTestFact
	if m.pass.ImportObjectFact(fn, &f) {
		return &f
	}
	return nil
}

// statusTestOf judges one declaration: a function of one bool result and
// an *http.Response parameter whose body is a list of `if c { return x }`
// (no init, no else) ending in `return x`, and nothing else. For each
// sample status the body is read with the response's StatusCode that
// status: a return whose condition cannot be true, or whose value is
// false, answers nothing; an `if` whose condition is surely true ends the
// reading. A status for which no return may answer true is left out.
func statusTestOf(info *types.Info, fn *types.Func, d *ast.FuncDecl) *StatusTestFact {
	sig := fn.Signature()
	if d.Body == nil || sig.Results().Len() != 1 || !analysisutil.IsBool(sig.Results().At(0).Type()) || len(d.Body.List) == 0 {
		return nil
	}
	param := -1
	for i := range sig.Params().Len() {
		if analysisutil.IsNamedType(sig.Params().At(i).Type(), "net/http", "Response") {
			if param >= 0 {
				return nil // two responses: which one?
			}
			param = i
		}
	}
	if param < 0 {
		return nil
	}
	p := sig.Params().At(param)
	var f StatusTestFact
	f.Param = param
	for _, code := range httpSamples {
		may, ok := mayAnswerTrue(info, d.Body.List, p, code)
		if !ok {
			return nil
		}
		if may {
			f.Codes = append(f.Codes, code)
		}
	}
	if len(f.Codes) == 0 || len(f.Codes) == len(httpSamples) {
		return nil
	}
	return &f
}

// mayAnswerTrue reads list with p.StatusCode == code; ok is false when
// the list is of another shape.
func mayAnswerTrue(info *types.Info, list []ast.Stmt, p *types.Var, code int64) (may, ok bool) {
	for i, st := range list {
		switch x := st.(type) {
		case *ast.IfStmt:
			if x.Init != nil || x.Else != nil || len(x.Body.List) != 1 {
				return false, false
			}
			ret, isRet := x.Body.List[0].(*ast.ReturnStmt)
			if !isRet || len(ret.Results) != 1 {
				return false, false
			}
			c := tri(info, x.Cond, p, code)
			if c != no && tri(info, ret.Results[0], p, code) != no {
				return true, true
			}
			if c == yes {
				return false, true
			}
		case *ast.ReturnStmt:
			if i != len(list)-1 || len(x.Results) != 1 {
				return false, false
			}
			return tri(info, x.Results[0], p, code) != no, true
		default:
			return false, false
		}
	}
	return false, false // no final return
}

type triVal int

const (
	maybe triVal = iota
	yes
	no
)

// tri evaluates a bool expression with p.StatusCode == code: comparisons
// of the status with constants, constants, !, && and ||; anything else
// may be either.
func tri(info *types.Info, e ast.Expr, p *types.Var, code int64) triVal {
	e = analysisutil.Unparen(e)
	if tv, ok := info.Types[e]; ok && tv.Value != nil && tv.Value.Kind() == constant.Bool {
		if constant.BoolVal(tv.Value) {
			return yes
		}
		return no
	}
	switch x := e.(type) {
	case *ast.UnaryExpr:
		if x.Op == token.NOT {
			switch tri(info, x.X, p, code) {
			case yes:
				return no
			case no:
				return yes
			}
		}
		return maybe
	case *ast.BinaryExpr:
		switch x.Op {
		case token.LAND:
			l, r := tri(info, x.X, p, code), tri(info, x.Y, p, code)
			if l == no || r == no {
				return no
			}
			if l == yes && r == yes {
				return yes
			}
			return maybe
		case token.LOR:
			l, r := tri(info, x.X, p, code), tri(info, x.Y, p, code)
			if l == yes || r == yes {
				return yes
			}
			if l == no && r == no {
				return no
			}
			return maybe
		case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
			l, lok := statusOrConst(info, x.X, p, code)
			r, rok := statusOrConst(info, x.Y, p, code)
			if !lok || !rok {
				return maybe
			}
			if constant.Compare(l, x.Op, r) {
				return yes
			}
			return no
		}
	}
	return maybe
}

// statusOrConst is code for p.StatusCode, or the value of an integer
// constant.
func statusOrConst(info *types.Info, e ast.Expr, p *types.Var, code int64) (constant.Value, bool) {
	e = analysisutil.Unparen(e)
	if tv, ok := info.Types[e]; ok && tv.Value != nil && tv.Value.Kind() == constant.Int {
		return tv.Value, true
	}
	sel, ok := e.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "StatusCode" {
		return nil, false
	}
	if f, ok := info.Uses[sel.Sel].(*types.Var); !ok || !f.IsField() || analysisutil.PkgPath(f) != "net/http" {
		return nil, false
	}
	if id, ok := analysisutil.Unparen(sel.X).(*ast.Ident); !ok || info.Uses[id] != p {
		return nil, false
	}
	return constant.MakeInt64(code), true
}
