package model

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// summaries memoizes one kind of per-function summary: computed for the
// functions of this package (a function met again while its own summary is
// being computed answers nil: recursion adds nothing), imported as facts
// for the functions of other packages.
type summaries[F any] struct {
	done map[*types.Func]*F
	busy map[*types.Func]bool
}

func newSummaries[F any]() *summaries[F] {
	return &summaries[F]{done: map[*types.Func]*F{}, busy: map[*types.Func]bool{}}
}

func summarize[F any, PF interface {
	*F
	analysis.Fact
}](m *builder, s *summaries[F], fn *types.Func, compute func(fn *types.Func, d *ast.FuncDecl) *F) *F {
	fn = fn.Origin()
	if fn.Pkg() != m.pass.Pkg {
		var f F
		if fn.Pkg() != nil && m.pass.ImportObjectFact(fn, PF(&f)) {
			return &f
		}
		return nil
	}
	if f, ok := s.done[fn]; ok {
		return f
	}
	d := m.vals.Decls[fn]
	if d == nil || s.busy[fn] {
		return nil
	}
	s.busy[fn] = true
	f := compute(fn, d)
	delete(s.busy, fn)
	s.done[fn] = f
	return f
}
