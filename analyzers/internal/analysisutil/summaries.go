package analysisutil

import (
	"go/ast"
	"go/types"
)

// FuncDecls returns the function declarations with a body of files, in
// source order, and each one's function.
func FuncDecls(info *types.Info, files []*ast.File) ([]*types.Func, map[*types.Func]*ast.FuncDecl) {
	var order []*types.Func
	decls := map[*types.Func]*ast.FuncDecl{}
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			if fn, ok := info.Defs[fd.Name].(*types.Func); ok {
				order = append(order, fn)
				decls[fn] = fd
			}
		}
	}
	return order, decls
}

// Summaries memoizes a per-function summary of the functions declared in
// the package being analyzed, computed on first demand, so that a
// function's summary can use its callees' in any order. A function met
// again while its own summary is being computed (recursion) gets the zero
// F and false: recursion adds nothing to a summary.
type Summaries[F any] struct {
	Decls map[*types.Func]*ast.FuncDecl
	Order []*types.Func // the declarations, in source order
	done  map[*types.Func]F
	busy  map[*types.Func]bool
}

// NewSummaries prepares the summaries of the functions declared in files.
func NewSummaries[F any](info *types.Info, files []*ast.File) *Summaries[F] {
	order, decls := FuncDecls(info, files)
	return &Summaries[F]{Decls: decls, Order: order, done: map[*types.Func]F{}, busy: map[*types.Func]bool{}}
}

// Get returns fn's summary, computing it with compute the first time.
// It returns false for a function with no declaration here and for a
// function whose summary is being computed.
func (s *Summaries[F]) Get(fn *types.Func, compute func(fn *types.Func, d *ast.FuncDecl) F) (F, bool) {
	if f, ok := s.done[fn]; ok {
		return f, true
	}
	d := s.Decls[fn]
	if d == nil || s.busy[fn] {
		var zero F
		return zero, false
	}
	s.busy[fn] = true
	f := compute(fn, d)
	delete(s.busy, fn)
	s.done[fn] = f
	return f, true
}

// Done calls yield with every summary computed, in source order.
func (s *Summaries[F]) Done(yield func(fn *types.Func, f F)) {
	for _, fn := range s.Order {
		if f, ok := s.done[fn]; ok {
			yield(fn, f)
		}
	}
}
