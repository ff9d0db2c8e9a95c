package httpstatus

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// applySets records in s the headers sets leaves on the arguments of
// call.
func (b *builder) applySets(u *unit, call *ast.CallExpr, sets []ParamHeaders, s state) {
	fn := analysisutil.Callee(b.pass.TypesInfo, call)
	if fn == nil {
		return
	}
	sig := fn.Type().(*types.Signature)
	for _, ph := range sets {
		if ph.Param >= len(call.Args) || sig.Variadic() && ph.Param >= sig.Params().Len()-1 {
			continue
		}
		owner := b.headerOwner(u, call.Args[ph.Param])
		if owner == nil {
			continue
		}
		for _, h := range ph.Headers {
			s[hkey{owner, b.resolveName(u, call, h)}] = true
		}
	}
}

// ifTrue records in s, the state at the start of an if's true branch,
// the headers that a call tested by cond (itself, or through a local
// bool it was assigned to, each && conjunct) sets when it returns true
// (RespFact.SetsIfTrue).
func (b *builder) ifTrue(u *unit, cond ast.Expr, s state) {
	for _, c := range analysisutil.Split(cond, token.LAND) {
		var call *ast.CallExpr
		switch x := analysisutil.Unparen(c).(type) {
		case *ast.CallExpr:
			call = x
		case *ast.Ident:
			call = u.boolCalls[b.pass.TypesInfo.Uses[x]]
		}
		if call == nil {
			continue
		}
		if f := b.factOfCall(call); f != nil {
			b.applySets(u, call, f.SetsIfTrue, s)
		}
	}
}

// factOfCall is the RespFact of the function call calls, of this
// package or another; nil when none.
func (b *builder) factOfCall(call *ast.CallExpr) *RespFact {
	fn := analysisutil.Callee(b.pass.TypesInfo, call)
	if fn == nil || fn.Pkg() == nil {
		return nil
	}
	if fn.Pkg() == b.pass.Pkg {
		return b.function(fn)
	}
	var rf RespFact
	if b.pass.ImportObjectFact(fn, &rf) {
		return &rf
	}
	return nil
}
