package model

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/analyzers/internal/model/provenance"
)

// summaries memoizes one kind of per-function summary (provenance.Summaries).
type summaries[F any] = provenance.Summaries[F]

func newSummaries[F any]() *summaries[F] { return provenance.NewSummaries[F]() }

func summarize[F any, PF interface {
	*F
	analysis.Fact
}](m *builder, s *summaries[F], fn *types.Func, compute func(fn *types.Func, d *ast.FuncDecl) *F) *F {
	return provenance.Summarize[F, PF](m.pass, m.vals, s, fn, compute)
}
