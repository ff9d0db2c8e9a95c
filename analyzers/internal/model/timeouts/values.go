package timeouts

import (
	"fmt"
	"go/ast"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
	"github.com/resilint/resilint/analyzers/internal/model/provenance"
)

// ValueContextFact is exported for every function whose one result is a
// context.Context that every return derives from its context parameter
// Param by values only: `return context.WithValue(ctx, key{}, v)`, the
// parameter itself, or a call of another such function given it (a
// package's `NewContext(ctx, info)`). The result has the parameter's
// deadline and cancellation, no other: a Background handed to it is
// judged where the result goes, as context.WithValue's is.
type ValueContextFact struct {
	Param int
}

func (*ValueContextFact) AFact() {}

func (f *ValueContextFact) String() string { return fmt.Sprintf("valuecontext(%d)", f.Param) }

// valueSummary returns the ValueContextFact of fn.
func (m *layer) valueSummary(fn *types.Func) *ValueContextFact {
	return provenance.Summarize(m.pass, m.vals, m.valueCtxs, fn, func(fn *types.Func, d *ast.FuncDecl) *ValueContextFact {
		sig := fn.Signature()
		if d.Body == nil || sig.Results().Len() != 1 || !isContextType(sig.Results().At(0).Type()) {
			return nil
		}
		for i := range sig.Params().Len() {
			p := sig.Params().At(i)
			if !isContextType(p.Type()) {
				continue
			}
			returns := 0
			ok := true
			ast.Inspect(d.Body, func(n ast.Node) bool {
				switch x := n.(type) {
				case *ast.FuncLit:
					return false
				case *ast.ReturnStmt:
					returns++
					ok = ok && len(x.Results) == 1 && m.derivesValues(x.Results[0], p)
				}
				return ok
			})
			if ok && returns > 0 {
				return &ValueContextFact{Param: i}
			}
		}
		return nil
	})
}

// derivesValues reports whether e is the context p, or derived from it by
// values only: context.WithValue(p, ...) or a call of a function with a
// ValueContextFact given p, nested so.
func (m *layer) derivesValues(e ast.Expr, p *types.Var) bool {
	switch x := analysisutil.Unparen(e).(type) {
	case *ast.Ident:
		return m.pass.TypesInfo.Uses[x] == p
	case *ast.CallExpr:
		if i := m.valueArg(x); i >= 0 && i < len(x.Args) {
			return m.derivesValues(x.Args[i], p)
		}
	}
	return false
}

// valueArg returns the index of the context argument of call when call
// derives a context from it by values only (context.WithValue, or a
// function with a ValueContextFact), or -1.
func (m *layer) valueArg(call *ast.CallExpr) int {
	if m.isContextFunc(call, "WithValue") {
		return 0
	}
	if fn := analysisutil.Callee(m.pass.TypesInfo, call); fn != nil {
		if row := catalog.LookupContext(analysisutil.PkgPath(fn), analysisutil.RecvTypeName(fn), fn.Name()); row != nil && row.Role == catalog.ValueDeriver {
			return row.ValueArg // trace.NewTask(ctx, name): a task put on it
		}
		if f := m.valueSummary(fn); f != nil {
			return f.Param
		}
	}
	return -1
}
