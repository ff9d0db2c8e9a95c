package model

import (
	"go/ast"
	"go/token"
	"sort"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
)

// implementation is the body of a function of the package that is itself
// a catalogued retry or retrying send.
type implementation struct {
	body *ast.BlockStmt
	row  *catalog.Row
}

// markImplementations finds the bodies of the package's functions that
// are themselves catalogued retries or retrying sends — a library
// analyzed by itself (go-retry's Constant calling its Do with
// NewConstant, go-retryablehttp's Client.Post calling its Client.Do) —
// and sets Retry.Implements on the retries written in them. The row
// describes such a function to its callers, who are judged where they
// call it, with their arguments; its body is the behaviour the row
// states.
func (m *builder) markImplementations() {
	for fn, d := range m.vals.Decls {
		row := catalog.Lookup(analysisutil.PkgPath(fn), analysisutil.RecvTypeName(fn), fn.Name())
		if row != nil && (row.Role == catalog.Retry || row.Role == catalog.RetrySend) {
			m.result.impls = append(m.result.impls, implementation{d.Body, row})
		}
	}
	sort.Slice(m.result.impls, func(i, j int) bool { return m.result.impls[i].body.Pos() < m.result.impls[j].body.Pos() })
	for _, r := range m.result.Retries {
		r.Implements = m.result.Implementation(r.Pos)
	}
	for _, r := range m.result.Resumes {
		r.Implements = m.result.Implementation(r.Pos)
	}
}

// Implementation returns the catalog row of the function whose body
// holds pos, when that function is itself a catalogued retry or retrying
// send (see Retry.Implements); nil otherwise.
func (r *Result) Implementation(pos token.Pos) *catalog.Row {
	i := sort.Search(len(r.impls), func(i int) bool { return r.impls[i].body.End() > pos })
	if i < len(r.impls) && r.impls[i].body.Pos() <= pos {
		return r.impls[i].row
	}
	return nil
}
