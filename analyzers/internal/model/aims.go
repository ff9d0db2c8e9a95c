package model

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// aims answers, for one loop, what the loop writes into what an
// operation's argument points at (pointedAt), on the paths that stay in
// the loop. One walk of the loop indexes, by variable, the values
// written into fields reached through it and the calls it is given to.
type aims struct {
	m      *builder
	writes map[*types.Var][]ast.Expr
	calls  map[*types.Var][]*ast.CallExpr
	values map[*types.Var][]ast.Expr // pointedAt's answers, once per variable
}

func (m *builder) newAims(nodes []ast.Node) *aims {
	info := m.pass.TypesInfo
	a := &aims{m: m, writes: map[*types.Var][]ast.Expr{}, calls: map[*types.Var][]*ast.CallExpr{}, values: map[*types.Var][]ast.Expr{}}
	// leaving: the statements of a list that ends in a return with no
	// continue or goto after them: a pass that runs one leaves the loop.
	leaving := map[ast.Stmt]bool{}
	mark := func(list []ast.Stmt) {
		n := len(list)
		if n == 0 {
			return
		}
		if _, ok := list[n-1].(*ast.ReturnStmt); !ok {
			return
		}
		for k := n - 1; k >= 0 && !goesOn(list[k]); k-- {
			leaving[list[k]] = true
		}
	}
	for _, root := range nodes {
		ast.Inspect(root, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.BlockStmt:
				mark(x.List)
			case *ast.CaseClause:
				mark(x.Body)
			case *ast.CommClause:
				mark(x.Body)
			}
			return true
		})
	}
	for _, root := range nodes {
		ast.Inspect(root, func(n ast.Node) bool {
			if st, ok := n.(ast.Stmt); ok && leaving[st] {
				return false
			}
			switch x := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.AssignStmt:
				if x.Tok != token.ASSIGN || len(x.Lhs) != len(x.Rhs) {
					return true
				}
				for i, l := range x.Lhs {
					if _, isSel := analysisutil.Unparen(l).(*ast.SelectorExpr); isSel {
						if v := rootVar(info, l); v != nil {
							a.writes[v] = append(a.writes[v], x.Rhs[i])
						}
					}
				}
			case *ast.CallExpr:
				for _, arg := range x.Args {
					if id, ok := analysisutil.Unparen(arg).(*ast.Ident); ok {
						if v, ok := info.Uses[id].(*types.Var); ok {
							a.calls[v] = append(a.calls[v], x)
						}
					}
				}
			}
			return true
		})
	}
	return a
}

// pointedAt returns the values the loop writes into what the operation's
// argument arg (a variable) points at, on a path that stays in the loop:
// a field reached through it (`req.URL.Host = n.addr`), or an argument of
// a call of a function of this package that assigns, through the
// parameter arg is given to, a value made from the parameter that
// argument is given to (`aim(req, n.base)`, whose body sets
// `req.URL.Host = base.Host`). The request an attempt sends is then aimed
// by those values. A write in a block that then returns, with no continue
// or goto between (`c.conn = conn; return nil`), ends the loop, and aims
// nothing. The variable is returned too (nil if arg is none), so that
// callers can take each variable once.
func (a *aims) pointedAt(arg ast.Expr) (*types.Var, []ast.Expr) {
	id, ok := analysisutil.Unparen(arg).(*ast.Ident)
	if !ok {
		return nil, nil
	}
	v, ok := a.m.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok {
		return nil, nil
	}
	if vals, ok := a.values[v]; ok {
		return v, vals
	}
	vals := append([]ast.Expr(nil), a.writes[v]...)
	for _, c := range a.calls[v] {
		a.m.aimedBy(c, v, func(e ast.Expr) { vals = append(vals, e) })
	}
	a.values[v] = vals
	return v, vals
}

// goesOn reports whether st holds a continue or a goto (outside function
// literals): a pass may go round from it.
func goesOn(st ast.Stmt) bool {
	return analysisutil.AnyIn([]ast.Node{st}, func(n ast.Node) bool {
		b, ok := n.(*ast.BranchStmt)
		return ok && (b.Tok == token.CONTINUE || b.Tok == token.GOTO)
	})
}

// aimedBy calls flow with the arguments of call that its function, one of
// this package, assigns from through the parameter v is given to: for
// `aim(req, n.base)` with `req.URL.Host = base.Host` in aim's body, n.base.
func (m *builder) aimedBy(call *ast.CallExpr, v *types.Var, flow func(ast.Expr)) {
	info := m.pass.TypesInfo
	fn := analysisutil.Callee(info, call)
	if fn == nil {
		return
	}
	d := m.vals.Decls[fn.Origin()]
	sig, ok := fn.Origin().Type().(*types.Signature)
	if d == nil || d.Body == nil || !ok || sig.Variadic() {
		return
	}
	for i, a := range call.Args {
		if ai, ok := analysisutil.Unparen(a).(*ast.Ident); !ok || info.Uses[ai] != v || i >= sig.Params().Len() {
			continue
		}
		for j, b := range call.Args {
			if j != i && j < sig.Params().Len() && m.writesThroughFrom(d, sig.Params().At(i), sig.Params().At(j)) {
				flow(b)
			}
		}
	}
}

// rootVar returns the variable a selector chain starts from (`req` of
// `req.URL.Host`), or nil.
func rootVar(info *types.Info, e ast.Expr) *types.Var {
	for {
		switch x := analysisutil.Unparen(e).(type) {
		case *ast.SelectorExpr:
			e = x.X
		case *ast.Ident:
			v, _ := info.Uses[x].(*types.Var)
			return v
		default:
			return nil
		}
	}
}

// writesThroughFrom reports, once per pair of parameters, whether the
// function d assigns, to a field reached through its pointer parameter
// dst, a value made from its parameter src: src itself, or a local
// assigned from it (`to, err := resp.Location(); req.URL = to`).
func (m *builder) writesThroughFrom(d *ast.FuncDecl, dst, src *types.Var) bool {
	key := [2]*types.Var{dst, src}
	if got, ok := m.throughFrom[key]; ok {
		return got
	}
	got := writesThroughFrom(m.pass.TypesInfo, d, dst, src)
	if m.throughFrom == nil {
		m.throughFrom = map[[2]*types.Var]bool{}
	}
	m.throughFrom[key] = got
	return got
}

func writesThroughFrom(info *types.Info, d *ast.FuncDecl, dst, src *types.Var) bool {
	if _, ok := dst.Type().Underlying().(*types.Pointer); !ok {
		return false
	}
	from := map[types.Object]bool{src: true}
	mentions := func(e ast.Expr) bool {
		found := false
		ast.Inspect(e, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && from[info.Uses[id]] {
				found = true
			}
			return !found
		})
		return found
	}
	// Locals made from src, in source order (one pass: a value is made
	// before it is used).
	found := false
	ast.Inspect(d.Body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || found {
			return !found
		}
		for i, l := range as.Lhs {
			r := as.Rhs[0]
			if len(as.Rhs) == len(as.Lhs) {
				r = as.Rhs[i]
			}
			if !mentions(r) {
				continue
			}
			if _, isSel := analysisutil.Unparen(l).(*ast.SelectorExpr); isSel && rootVar(info, l) == dst {
				found = true
			}
			if id, ok := analysisutil.Unparen(l).(*ast.Ident); ok && info.ObjectOf(id) != nil {
				from[info.ObjectOf(id)] = true
			}
		}
		return !found
	})
	return found
}
