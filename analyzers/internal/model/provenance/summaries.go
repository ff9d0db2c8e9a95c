package provenance

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// Summaries memoizes one kind of per-function summary: computed for the
// functions of this package (a function met again while its own summary is
// being computed answers nil: recursion adds nothing), imported as facts
// for the functions of other packages.
type Summaries[F any] struct {
	done map[*types.Func]*F
	busy map[*types.Func]bool
}

// NewSummaries returns an empty memo.
func NewSummaries[F any]() *Summaries[F] {
	return &Summaries[F]{done: map[*types.Func]*F{}, busy: map[*types.Func]bool{}}
}

// Summarize returns the summary of fn: computed by compute from its
// declaration for a function of the package of pass (once), imported as
// pass's fact for a function of another package.
func Summarize[F any, PF interface {
	*F
	analysis.Fact
}](pass *analysis.Pass, vals *Values, s *Summaries[F], fn *types.Func, compute func(fn *types.Func, d *ast.FuncDecl) *F) *F {
	fn = fn.Origin()
	if fn.Pkg() != pass.Pkg {
		var f F
		if fn.Pkg() != nil && pass.ImportObjectFact(fn, PF(&f)) {
			return &f
		}
		return nil
	}
	if f, ok := s.done[fn]; ok {
		return f
	}
	d := vals.Decls[fn]
	if d == nil || s.busy[fn] {
		return nil
	}
	s.busy[fn] = true
	f := compute(fn, d)
	delete(s.busy, fn)
	s.done[fn] = f
	return f
}
