package model

// Stateful predicates: a go-round test made by a constructor that keeps
// its own history (`shouldRetry := newChecker(3)`; `if
// !shouldRetry(err) { return err }`), whose closure counts its calls,
// waits or gives up by itself. The loop around it follows the code's
// own retry policy, which the model does not read.

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/model/provenance"
)

// StatefulPredFact is exported for a function whose one result is a
// function returning one bool, and whose every return gives a closure
// that writes a local variable it captures (a count of its calls so
// far), or what another such function returns.
type StatefulPredFact struct{}

func (*StatefulPredFact) AFact() {}

func (*StatefulPredFact) String() string { return "makes a stateful predicate" }

// findStatefulPreds computes the package's makers of stateful predicates
// and exports their facts.
func (m *builder) findStatefulPreds() {
	m.statefulMakers = map[*types.Func]bool{}
	m.funcsWhere(m.statefulMakers, func(fn *types.Func, d *ast.FuncDecl) bool {
		sig := fn.Type().(*types.Signature)
		if sig.Results().Len() != 1 || !returnsOneBool(sig.Results().At(0).Type()) {
			return false
		}
		all, some := true, false
		ast.Inspect(d.Body, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ReturnStmt:
				some = true
				all = all && len(x.Results) == 1 && m.statefulOrigin(x.Results[0])
			}
			return all
		})
		return all && some
	}, func() analysis.Fact { return &StatefulPredFact{} })
}

// returnsOneBool reports whether t is a function type with one result, a
// bool.
func returnsOneBool(t types.Type) bool {
	sig, ok := t.Underlying().(*types.Signature)
	return ok && sig.Results().Len() == 1 && types.Identical(sig.Results().At(0).Type().Underlying(), types.Typ[types.Bool])
}

// statefulOrigin reports whether e is a closure that writes a local
// variable it captures, or a call of a stateful-predicate maker.
func (m *builder) statefulOrigin(e ast.Expr) bool {
	switch x := analysisutil.Unparen(e).(type) {
	case *ast.FuncLit:
		return writesCaptured(m.pass.TypesInfo, x)
	case *ast.CallExpr:
		return m.funcHas(analysisutil.Callee(m.pass.TypesInfo, x), m.statefulMakers, new(StatefulPredFact))
	}
	return false
}

// writesCaptured reports whether lit assigns, or steps, a local variable
// declared outside it.
func writesCaptured(info *types.Info, lit *ast.FuncLit) bool {
	captured := func(e ast.Expr) bool {
		id, ok := analysisutil.Unparen(e).(*ast.Ident)
		if !ok {
			return false
		}
		v, ok := info.Uses[id].(*types.Var)
		return ok && provenance.IsLocal(v) && (v.Pos() < lit.Pos() || v.Pos() >= lit.End())
	}
	found := false
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.IncDecStmt:
			found = found || captured(x.X)
		case *ast.AssignStmt:
			if x.Tok != token.DEFINE {
				for _, l := range x.Lhs {
					found = found || captured(l)
				}
			}
		}
		return !found
	})
	return found
}

// statefulPredCall reports whether call calls a function value (not a
// declared function, not a literal in place) returning one bool, every
// value of which is a stateful predicate.
func (m *builder) statefulPredCall(call *ast.CallExpr) bool {
	info := m.pass.TypesInfo
	if _, isLit := analysisutil.Unparen(call.Fun).(*ast.FuncLit); isLit || analysisutil.Callee(info, call) != nil {
		return false
	}
	if t := info.TypeOf(call.Fun); t == nil || !returnsOneBool(t) {
		return false
	}
	origins := m.vals.Trace(call.Fun)
	for _, o := range origins {
		if !m.statefulOrigin(o.Expr) {
			return false
		}
	}
	return len(origins) > 0
}
