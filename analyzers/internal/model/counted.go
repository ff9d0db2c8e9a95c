package model

import (
	"go/ast"
	"go/constant"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// CountedCall is a call that gives a retry bounded by its caller's
// argument a constant count: `charge(ctx, 3)` of a recursion that counts
// its second parameter down. Each of the retry's attempts reaches
// retries of its own (Fact.PerAttempt calls per attempt), so the call is
// where the nesting's numbers are known.
type CountedCall struct {
	Call     *ast.CallExpr
	Callee   *types.Func
	Fact     *RetryFact
	Attempts int64 // what the argument gives
	// Retry is the recursive retry itself when it is in this package
	// (nil for another package's: only its fact is known here).
	Retry *Retry
}

// findCountedCalls lists the package's CountedCalls: calls, outside the
// callee itself, of a function whose RetryFact takes its attempts from a
// parameter and whose every attempt reaches more than one downstream
// call, with a constant argument there that gives at least two attempts.
func (m *builder) findCountedCalls() {
	for _, file := range m.pass.Files {
		for _, decl := range file.Decls {
			var enclosing *types.Func
			if fd, ok := decl.(*ast.FuncDecl); ok {
				enclosing, _ = m.pass.TypesInfo.Defs[fd.Name].(*types.Func)
			}
			m.countedCallsIn(decl, enclosing)
		}
	}
}

// countedCallsIn adds the CountedCalls of one declaration; enclosing is
// the function it declares, if any.
func (m *builder) countedCallsIn(decl ast.Decl, enclosing *types.Func) {
	info := m.pass.TypesInfo
	ast.Inspect(decl, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		fn := analysisutil.Callee(info, call)
		if fn == nil || fn.Origin() == enclosing {
			return true // a recursion's own next attempt
		}
		f := m.summary(fn.Origin())
		if f == nil || f.AttemptsParam <= 0 || f.AttemptsParam > len(call.Args) || f.PerAttempt < 2 {
			return true
		}
		tv := info.Types[call.Args[f.AttemptsParam-1]]
		if tv.Value == nil {
			return true
		}
		v, exact := constant.Int64Val(constant.ToInt(tv.Value))
		if !exact {
			return true
		}
		if attempts := int64(f.AttemptsSign)*v + f.AttemptsOffset; attempts >= 2 {
			c := &CountedCall{Call: call, Callee: fn, Fact: f, Attempts: attempts}
			if p, ok := m.result.SitePos[fn.Origin()]; ok {
				for _, r := range m.result.Retries {
					if r.Pos == p && r.Kind == RecursiveRetry {
						c.Retry = r
					}
				}
			}
			m.result.CountedCalls = append(m.result.CountedCalls, c)
		}
		return true
	})
}
