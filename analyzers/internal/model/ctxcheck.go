package model

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// CtxCheckFact is exported for every function that checks whether the
// context it is given is done (ctx.Err(), ctx.Done(), ctx.Deadline(), or
// passing it to a function with this fact): a loop that calls it with its
// context (`if isHalt(ctx, err) { return err }`) is bounded by that
// context, as if it checked it itself.
type CtxCheckFact struct {
	// Param is the index of the context parameter.
	Param int
}

func (*CtxCheckFact) AFact() {}

func (f *CtxCheckFact) String() string { return "checksctx" }

// findCtxChecks computes the package's functions that check their context
// parameter and exports their facts.
func (m *builder) findCtxChecks() {
	m.ctxChecks = map[*types.Func]int{}
	info := m.pass.TypesInfo
	for round := 0; round < maxFactRounds; round++ {
		changed := false
		for fn, d := range m.vals.Decls {
			if _, done := m.ctxChecks[fn]; done || d.Body == nil {
				continue
			}
			params := fn.Type().(*types.Signature).Params()
			for i := range params.Len() {
				p := params.At(i)
				if !analysisutil.IsNamedType(p.Type(), "context", "Context") {
					continue
				}
				found := false
				ast.Inspect(d.Body, func(n ast.Node) bool {
					if _, ok := n.(*ast.FuncLit); ok || found {
						return false
					}
					call, ok := n.(*ast.CallExpr)
					if !ok {
						return true
					}
					callee := analysisutil.Callee(info, call)
					if sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr); ok && isCtxQuery(callee) {
						if id, ok := analysisutil.Unparen(sel.X).(*ast.Ident); ok && info.Uses[id] == p {
							found = true
						}
					}
					if !found && callee != nil && callee != fn && m.checksContext(callee, call) && passes(info, call, p) {
						found = true
					}
					return !found
				})
				if found {
					m.ctxChecks[fn] = i
					m.pass.ExportObjectFact(fn, &CtxCheckFact{Param: i})
					changed = true
					break
				}
			}
		}
		if !changed {
			break
		}
	}
}

func isCtxQuery(fn *types.Func) bool {
	return analysisutil.IsMethod(fn, "context", "Context", "Done") || analysisutil.IsMethod(fn, "context", "Context", "Err") ||
		analysisutil.IsMethod(fn, "context", "Context", "Deadline")
}

// passes reports whether call passes the variable p as an argument.
func passes(info *types.Info, call *ast.CallExpr, p *types.Var) bool {
	for _, a := range call.Args {
		if id, ok := analysisutil.Unparen(a).(*ast.Ident); ok && info.Uses[id] == p {
			return true
		}
	}
	return false
}

// checksContext reports whether call is a call of fn, a function that
// checks the context it is given, with a context argument there.
func (m *builder) checksContext(fn *types.Func, call *ast.CallExpr) bool {
	if fn == nil {
		return false
	}
	idx, ok := m.ctxChecks[fn]
	if !ok && fn.Pkg() != nil && fn.Pkg() != m.pass.Pkg {
		var f CtxCheckFact
		if m.pass.ImportObjectFact(fn, &f) {
			idx, ok = f.Param, true
		}
	}
	if !ok || idx >= len(call.Args) {
		return false
	}
	tv, ok := m.pass.TypesInfo.Types[call.Args[idx]]
	return ok && analysisutil.IsNamedType(tv.Type, "context", "Context")
}

// stopCase reports whether a select case receives from a channel and
// leaves the loop (returns or breaks): the loop ends when another
// goroutine closes or signals that channel, or when a deadline's timer
// fires (`case <-deadline.C: return`).
func (m *builder) stopCase(cc *ast.CommClause) bool {
	if cc.Comm == nil {
		return false
	}
	var recv *ast.UnaryExpr
	ast.Inspect(cc.Comm, func(n ast.Node) bool {
		if u, ok := n.(*ast.UnaryExpr); ok && u.Op == token.ARROW {
			recv = u
		}
		return recv == nil
	})
	if recv == nil {
		return false
	}
	leaves := false
	for _, st := range cc.Body {
		ast.Inspect(st, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ReturnStmt:
				leaves = true
			case *ast.BranchStmt:
				if x.Tok == token.BREAK || x.Tok == token.GOTO {
					leaves = true
				}
			}
			return !leaves
		})
	}
	return leaves
}

// flagStop reports whether ifs leaves the loop (its body returns or
// breaks) when state kept outside the function says so: its condition
// reads a struct field (p.closed, p.closedFlag.Load()) and no local
// variable of its own. Another goroutine sets that field to end the loop.
func (m *builder) flagStop(ifs *ast.IfStmt) bool {
	if ifs.Init != nil || len(ifs.Body.List) == 0 {
		return false
	}
	switch last := ifs.Body.List[len(ifs.Body.List)-1].(type) {
	case *ast.ReturnStmt:
	case *ast.BranchStmt:
		if last.Tok != token.BREAK {
			return false
		}
	default:
		return false
	}
	info := m.pass.TypesInfo
	field, local := false, false
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.SelectorExpr:
			if sel, ok := info.Selections[x]; ok && sel.Kind() == types.FieldVal {
				field = true
				return false // the receiver of a field is the shared state
			}
		case *ast.Ident:
			if v, ok := info.Uses[x].(*types.Var); ok && isLocal(v) {
				local = true
			}
		case *ast.FuncLit:
			return false
		}
		return true
	}
	ast.Inspect(ifs.Cond, visit)
	return field && !local
}
